"""The painter's layouts, one module per family of screens.

- `frame`: the title band and the button legend round every screen
- `stack`: lines of text one below the other, with bands and icons, fitted to a box
- `turn`: the turn screen (a big card, the notes beside it, the round's earlier cards)
- `round_start`: who flips the cards, each seat's pencil, the special-stations pairing
- `page`: every other screen, from `Words.page`: messages, lists with a cursor, the deal code
"""
