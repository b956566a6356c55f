"""The running box: the loop that wires inputs → session → display (`loop`), the saver
that keeps the game over a store that may fail (`saving`), the voice (`speaker`) and
systemd's notifications (`notify`)."""
