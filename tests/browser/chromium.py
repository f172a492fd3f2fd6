"""Drive Debian's headless Chromium over the DevTools protocol on a pipe (no extra package, no port).

`--remote-debugging-pipe` makes Chromium read commands from fd 3 and write replies to fd 4, as JSON
messages ended by NUL bytes. `Browser` opens one page, evaluates JS in it, sends keys and screenshots.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
KEY_CODES = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35, "a": 65, "0": 48, "1": 49, "2": 50}


def chromium_path() -> str:
    """The Chromium executable; AssertionError (a failure, not a skip) naming the install when absent."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("chromium is not installed: apt-get update && apt-get install -y chromium")


class Browser:
    def __init__(self, url: str, ready: str, window: tuple[int, int] = (1600, 1000),
                 timeout: float = 60.0) -> None:
        """Open `url` in a window of `window` (width, height) pixels and wait until the JS expression
        `ready` is true in it."""
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="chromium-profile-")
        to_child, self._out = os.pipe()
        self._in, from_child = os.pipe()

        def fds() -> None:  # in the child: the protocol's fds 3 (commands) and 4 (replies), kept open
            # by close_fds=False (pass_fds would close these copies after this hook)
            read, write = os.dup(to_child), os.dup(from_child)  # above 4, so neither is overwritten
            os.dup2(read, 3)  # dup2 makes them inheritable: they survive the exec
            os.dup2(write, 4)

        self.proc = subprocess.Popen(
            [chromium_path(), *FLAGS, "--window-size={},{}".format(*window), f"--user-data-dir={self.profile}",
             "--remote-debugging-pipe", url],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self._buffer = b""
        self._next_id = 0
        page = next(t for t in self._wait_for_page() if t["type"] == "page")
        self.session = self.send("Target.attachToTarget", targetId=page["targetId"], flatten=True,
                                 session=False)["sessionId"]
        self.wait_until(f"location.href.startsWith('file:') && document.readyState === 'complete' && ({ready})")

    def _wait_for_page(self) -> list[dict[str, Any]]:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            targets = self.send("Target.getTargets", session=False)["targetInfos"]
            if any(t["type"] == "page" for t in targets):
                return targets
            time.sleep(0.1)
        raise TimeoutError("chromium opened no page")

    def send(self, method: str, session: bool = True, **params: Any) -> dict[str, Any]:
        """One protocol command; its result (events in between are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply["result"]
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        raise TimeoutError(f"no reply to {method}")

    def js(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, expression: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not self.js(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true: {expression}")
            time.sleep(0.05)

    def press(self, key: str) -> None:
        code = KEY_CODES[key]
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code)

    def screenshot(self) -> bytes:
        return base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self._out)
        os.close(self._in)
        shutil.rmtree(self.profile, ignore_errors=True)
