"""The GitHub workflow runs the README's test command on Python 3.11, CPU torch first, then the gate."""
from pathlib import Path

import yaml

WORKFLOW = Path(__file__).resolve().parents[2] / ".github" / "workflows" / "ci.yml"


def test_workflow_installs_pinned_torch_before_the_extras_then_tests_and_gates():
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    steps = jobs["test"]["steps"]
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["python-version"] == "3.11"
    runs = [s["run"] for s in steps if "run" in s]
    torch = next(i for i, r in enumerate(runs) if "torch==2.13.0" in r)
    tests = next(i for i, r in enumerate(runs) if 'pip install -e ".[dev,train,rllib,clients]" && python -m pytest' in r)
    gate = next(i for i, r in enumerate(runs) if "python -m benchmarks.gate" in r)
    assert torch < tests < gate
