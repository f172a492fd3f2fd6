"""python -m benchmarks.tournament"""
from .cli import main

raise SystemExit(main())
