"""``seen_through``: the pool's COMMIT, ROLLBACK or release is seen through a cancel of its
caller, and the cancel still reaches the caller after it (a task that swallowed it would run
on: a process asked to stop would never stop)."""

from __future__ import annotations

import asyncio

import pytest

from storage.txn.pool import seen_through


async def test_a_cancel_that_comes_as_the_work_ends_is_raised_after_it() -> None:
    """The work ends and the caller is cancelled in the same turn of the loop: the caller
    gets the cancel, not the work's result."""
    work: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    caller = asyncio.create_task(seen_through(work))
    await asyncio.sleep(0)  # the caller waits for the work
    work.set_result(1)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert caller.cancelled()


async def test_a_cancel_while_the_work_runs_waits_for_it() -> None:
    work: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    caller = asyncio.create_task(seen_through(work))
    await asyncio.sleep(0)
    caller.cancel()
    await asyncio.sleep(0)
    assert not caller.done() and not work.done()  # the work is seen through
    work.set_result(1)
    with pytest.raises(asyncio.CancelledError):
        await caller


async def test_the_work_s_result_and_error_reach_an_uncancelled_caller() -> None:
    async def fails() -> None:
        raise ValueError("no")

    async def answers() -> int:
        return 7

    assert await seen_through(answers()) == 7
    with pytest.raises(ValueError):
        await seen_through(fails())
