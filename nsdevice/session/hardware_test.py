"""The screens of `nsdevice hwtest`, built here with the session's other views so that the
gallery and the check share one builder and neither reaches up into the command."""

from __future__ import annotations

from collections.abc import Sequence

from nsdevice import views
from nsdevice.inputs.events import Button


def hardware_test_view(
    step: str,
    language: str,
    *,
    button: str | None = None,
    led: str | None = None,
    passed: Sequence[str] = (),
    failed: Sequence[str] = (),
) -> views.HardwareTestView:
    """One step of the check. Only the test pattern waits for any button, so only it has a
    legend; while a button is asked for, the screen names it instead."""
    legend = tuple(views.Hint(b.value, "continue") for b in Button) if step == "pattern" else ()
    return views.HardwareTestView(
        language=language, hints=legend, step=step, button=button, led=led,
        passed=tuple(passed), failed=tuple(failed),
    )  # fmt: skip
