"""The run's order (tests/conftest.py) assumes how pytest-xdist hands out the first tests
to each worker. The order is a speed choice only, so a pytest-xdist that hands them out
differently would make no test fail, only the run slower without a word: here its own
schedulers are asked, with stand-in workers, and must hand out what ``_first_portions``
expects."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from xdist.scheduler import LoadScheduling, WorkStealingScheduling

from .conftest import _first_portions


class Worker:
    """What a scheduler sees of a worker: the tests it is sent."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[list[int]] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.append(list(indices))

    def send_runtest_all(self) -> None:
        raise AssertionError("every test to one worker")

    def shutdown(self) -> None:
        self.shutting_down = True


def first_batches(scheduler_class: Any, workers: int, count: int) -> list[int]:
    """How many tests each worker is sent at the start of a run of ``count`` tests."""
    options = {"tx": [f"{workers}*popen"], "maxschedchunk": None, "dist": ""}
    config = SimpleNamespace(getvalue=options.__getitem__, getoption=options.__getitem__)
    scheduler = scheduler_class(config)
    nodes = [Worker(f"gw{i}") for i in range(workers)]
    collection = [f"tests/test_x.py::test_{i}" for i in range(count)]
    for node in nodes:
        scheduler.add_node(node)
    for node in nodes:
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()
    return [len(node.sent[0]) for node in nodes]


@pytest.mark.parametrize("dist, scheduler_class",
                         [("worksteal", WorkStealingScheduling), ("load", LoadScheduling)])
@pytest.mark.parametrize("workers, count", [(3, 3300), (3, 3251), (4, 3300), (3, 170)])
def test_the_first_tests_each_worker_is_handed_are_as_the_order_expects(
        dist, scheduler_class, workers, count):
    worker_config = SimpleNamespace(workerinput={"workercount": workers, "dist": dist})
    expected = _first_portions(worker_config, count)  # type: ignore[arg-type]
    assert first_batches(scheduler_class, workers, count) == expected
