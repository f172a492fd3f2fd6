"""`python -m tests.play.toy_cli ARGS`: the terminal game with the eventful toy registered, as a game of
your own is played (games are registered by code, never loaded from a path a user or a file names)."""
import sys

from corruption_envs.play import main
from tests.play.eventful_toy import register_toy

if __name__ == "__main__":
    register_toy()
    sys.exit(main())
