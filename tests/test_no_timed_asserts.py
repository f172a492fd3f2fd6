"""No test asserts on a time: a test that reads a clock, or orders timings, passes or fails with the
machine's load. Timing claims belong in benchmarks/ (scripts that print figures, measured side by side)."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
CLOCKS = {"time", "perf_counter", "perf_counter_ns", "process_time", "process_time_ns", "monotonic",
          "monotonic_ns", "thread_time", "time_ns", "now", "utcnow"}
TIMING_WORDS = ("cpu_ms", "wall", "seconds", "elapsed", "duration", "per_second")


def clock_calls(tree: ast.AST) -> list[int]:
    """Lines that call time.<clock>() or datetime.now() (any module alias)."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in CLOCKS and isinstance(node.func.value, ast.Name)
            and node.func.value.id in {"time", "datetime", "dt"}]


def mentions_timing(node: ast.AST) -> bool:
    words = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    words += [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
    words += [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return any(w in word.lower() for word in words for w in TIMING_WORDS)


def ordered_timings(tree: ast.AST) -> list[int]:
    """Lines of asserts that order a timing (`a.cpu_ms > b.cpu_ms`, `elapsed < 2`)."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Assert) for cmp in ast.walk(node.test)
            if isinstance(cmp, ast.Compare)
            and any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in cmp.ops)
            and mentions_timing(cmp)]


def offences(source: str) -> list[int]:
    tree = ast.parse(source)
    return sorted(set(clock_calls(tree) + ordered_timings(tree)))


def test_no_test_reads_a_clock_or_orders_timings():
    # test modules only: a support module (the browser driver) may read a clock for its time-outs
    found = {str(p.relative_to(TESTS)): lines for p in sorted(TESTS.rglob("test_*.py"))
             if p.name != Path(__file__).name and (lines := offences(p.read_text()))}
    assert not found, f"tests that read a clock or order timings (file: lines): {found}"


def test_the_check_finds_what_it_forbids():
    assert offences("import time\nt = time.perf_counter()\n") == [2]
    assert offences("assert a['cpu_ms_per_move'] > b['cpu_ms_per_move']\n") == [1]
    assert offences("assert run.wall_s < 5\n") == [1]
    assert offences("assert len(rec['cpu_ms_per_move']) == 4\nassert score > 0\n") == []
