"""The opt-in memory report (``BOT_MEMORY_LOG``) of load runs."""

from __future__ import annotations

import asyncio
import logging
import tracemalloc

import pytest

from bot import memory


async def test_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(memory.INTERVAL_ENV, raising=False)
    assert memory.start_from_env() is None


async def test_logs_the_figures_when_asked(monkeypatch: pytest.MonkeyPatch,
                                           caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv(memory.INTERVAL_ENV, "0.01")
    monkeypatch.setenv(memory.TRACE_ENV, "3")
    caplog.set_level(logging.INFO, logger="bot.memory")
    task = memory.start_from_env()
    assert task is not None
    try:
        for _ in range(500):
            if sum(r.getMessage() == "memory line" for r in caplog.records) >= 3:
                break
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    first = next(r for r in caplog.records if r.getMessage() == "memory")
    assert first.vmrss_kib > 0 and first.blocks > 0 and first.tasks >= 1  # type: ignore[attr-defined]
    assert any(r.getMessage() == "memory traced" for r in caplog.records)
    assert not tracemalloc.is_tracing()  # stopped with the report
