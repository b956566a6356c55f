"""The USB button board: a Raspberry Pi Pico that reports its buttons over a serial line.

The board debounces on its own (firmware/board.py), so this back end only turns its
`DOWN`/`UP` lines into already-debounced `Edge`s, stamped with the board's own times when
it sends them (protocol 1.1). Two parts: `protocol` is the line protocol, pure (lines,
the handshake's answer, the host's mirror of the buttons and its mending); `port` owns
the serial port and the thread that finds the board and feeds the protocol.
firmware/PROTOCOL.md is the contract both speak.
"""

from nsdevice.inputs.serial_board.port import (
    QUIET,
    QUIET_MAX,
    READ_TIMEOUT,
    USB_PID,
    USB_VID,
    Link,
    SerialBoard,
    find_board_ports,
    open_serial,
)
from nsdevice.inputs.serial_board.protocol import (
    BOARD_NAME,
    MAX_LINE,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    BoardState,
    BoardStatus,
    Hello,
    LineSplitter,
    led_command,
    parse_hello,
)

__all__ = [
    "BOARD_NAME",
    "MAX_LINE",
    "PROTOCOL_MAJOR",
    "PROTOCOL_MINOR",
    "QUIET",
    "QUIET_MAX",
    "READ_TIMEOUT",
    "USB_PID",
    "USB_VID",
    "BoardState",
    "BoardStatus",
    "Hello",
    "LineSplitter",
    "Link",
    "SerialBoard",
    "find_board_ports",
    "led_command",
    "open_serial",
    "parse_hello",
]
