"""A reading the benchmark takes in the background of its own loop while the games run."""

from __future__ import annotations

import asyncio


class Sampler:
    """Started before the games, stopped after them; a subclass reads in :meth:`_run`."""

    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        raise NotImplementedError
