"""Settings every test process needs before any test module is imported."""
import os

import pytest

from tests.toy_game import registered

# Ray reads this when it is imported: "0" keeps every node of a test cluster, and the driver that joins
# it, on 127.0.0.1 instead of the machine's interface address (tests send no traffic off this machine).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (`-n 2 --dist loadgroup`) every test that starts Ray runs on one worker, one
    after another: two local Ray clusters at once would crowd a small machine. Other tests spread freely."""
    for item in items:
        if "rllib" in item.nodeid.split("::")[0].split("/") or "rllib" in item.name:
            item.add_marker(pytest.mark.xdist_group("ray"))


@pytest.fixture(scope="module")
def toy_game():
    """The toy game registered as 'toy' for one test module (tests/toy_game.py)."""
    with registered() as name:
        yield name
