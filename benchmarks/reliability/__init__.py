"""The reliability harness: try hard to break the box, and say what held.

    python -m benchmarks.reliability                  # short mode (what tests run), ~16 s
    python -m benchmarks.reliability --long           # the long mode, for a person: ~2.5 min
    python -m benchmarks.reliability --only kill_storm --long --seed 7

(from the repository's top folder). Nine checks, one module each, each a plain function
that takes its counts as arguments and returns a `harness.Report` (counts of what was
tried, and failures), so tests call them with small counts; `run.py` is the command:

- `kill_storm`: SIGKILL a running box at random moments of play; it must come back on the
  screen it showed or the one the press in flight led to, with the same cards, and the
  database must pass `PRAGMA integrity_check`.
- `damaged_database`: start the box on broken state files; it must show a notice, keep
  the broken file aside and start clean, never crash or loop.
- `button_storm`: random chattering, overlapping and held button edges through the
  `ButtonTracker` into a `Session`, on a fake clock; invariants checked after every press.
- `serial_line`: garbage, overlong lines and unplug/replug on the Pico board's line, over
  a pseudo-terminal with the real firmware logic on the other end.
- `bad_command_line`: bad options for every command: one line on stderr, exit status 2.
- `schema_flips`: a bit flipped in the schema's text is damage: said, set aside, the next
  press saved in a fresh file (never "cannot write").
- `damage_notice`: a damage notice survives SIGKILLs until a press has shown it.
- `two_boxes`: a second box on a busy state folder exits 2 with one line naming the first,
  which goes on.
- `locked_store`: a store held locked by another connection: presses answered, watchdog
  pings never starved, the steps saved once the lock goes.

Exit status 0 when every check held, 1 otherwise. docs/RELIABILITY.md records the runs.
"""
