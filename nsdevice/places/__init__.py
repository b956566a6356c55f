"""Where things sit, as plain data the views carry: each button on the build's panel and
what it does on a screen (`panel`), and who sits where with which pencil in a room
(`seating`)."""
