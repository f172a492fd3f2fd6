import pytest

import corruption_envs
from tests.play.eventful_toy import NAME, register_toy


@pytest.fixture(scope="package", autouse=True)
def toy_registered():
    """The eventful toy registered in this process for this folder's tests (subprocesses run
    `tests.play.toy_cli`, which registers it there)."""
    register_toy()
    yield
    corruption_envs.unregister(NAME)
