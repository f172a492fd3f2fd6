"""Crafted input shared by the trust tests: a payload that proves a loader ran code, and the check
that a command line reported bad input as one line."""
import os


class Payload:
    """Unpickling this creates the folder `marker`: proof that a loader ran code from a file."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def one_line_error(capsys, *fragments):
    """stderr holds exactly one line, 'error: ...', with every fragment and no traceback; returns stdout."""
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return captured.out
