"""A widget's named workers, for the widget and the parts it composes: run one in a group,
ask whether a group is busy, stop a group. Textual's `WorkerManager` offers cancelling a
group, not asking about one; this is the one place that asks."""

from __future__ import annotations

from collections.abc import Callable, Coroutine

from textual.dom import DOMNode
from textual.worker import Worker


def busy(node: DOMNode, *groups: str) -> bool:
    """Whether a worker of `node` is not finished: of one of `groups`, or of any group
    when none is named."""
    return any(
        worker.node is node and (not groups or worker.group in groups) and not worker.is_finished
        for worker in node.workers
    )


class Workers:
    """The named workers of one widget (a part is given this, not the widget)."""

    def __init__(self, node: DOMNode) -> None:
        """Run and ask about `node`'s workers."""
        self._node = node

    def run(
        self, work: Callable[[], Coroutine[None, None, None]], group: str, *, exclusive: bool = True
    ) -> Worker[None]:
        """Run `work` (an async function, called when the worker starts) in `group`
        (`exclusive`: in place of one under way); its failure is the work's own to handle,
        never the app's. A function, not a coroutine: a worker replaced before it started
        then leaves no coroutine behind that was never awaited. The worker."""
        return self._node.run_worker(work, group=group, exclusive=exclusive, exit_on_error=False)

    def busy(self, *groups: str) -> bool:
        """Whether a worker of these groups (of any, when none is named) is under way."""
        return busy(self._node, *groups)

    def cancel(self, group: str) -> None:
        """Stop the workers of `group`."""
        self._node.workers.cancel_group(self._node, group)
