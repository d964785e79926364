"""The rules panel's contents, as HTML, from :mod:`yinsh.lessons` (browser-free).

The page fills its "Rules" dialog with :func:`rules_html` the first time it opens: one
numbered step per lesson (a heading, the rule, and the renderer's diagram with a visible
caption; the diagram's accessible name is the lesson's longer text alternative), then
the common mistakes as a list.

>>> html = rules_html()
>>> html.count('<li class="rules-step"'), html.count("<svg")
(8, 7)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..lessons import MISTAKES, Lesson, lessons
from ..render import escape

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["rules_html", "step_id"]

MISTAKES_TITLE = "Common mistakes"


def step_id(title: str) -> str:
    """The ``id`` of a step's heading: ``'Moving a ring'`` → ``'rules-moving-a-ring'``."""
    return "rules-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _step(lesson: Lesson) -> str:
    heading = step_id(lesson.title)
    figure = ""
    if lesson.svg:
        # The caption repeats the start of the diagram's accessible name: read once, not twice.
        figure = (f'<figure class="rules-diagram">{lesson.svg}'
                  f'<figcaption aria-hidden="true">{escape(lesson.caption)}</figcaption></figure>')
    return (f'<li class="rules-step" aria-labelledby="{heading}"><h3 id="{heading}">{escape(lesson.title)}</h3>'
            f'<p>{escape(lesson.text)}</p>{figure}</li>')


def rules_html(steps: Sequence[Lesson] | None = None, mistakes: Sequence[str] = MISTAKES) -> str:
    """The rules in steps (default: :func:`yinsh.lessons.lessons`), then the common mistakes.

    A lesson titled "Common mistakes" is left out of the steps: the mistakes get a list of
    their own.
    """
    steps = lessons() if steps is None else steps
    items = "".join(_step(s) for s in steps if s.title != MISTAKES_TITLE)
    heading = step_id(MISTAKES_TITLE)
    listed = "".join(f"<li>{escape(m)}</li>" for m in mistakes)
    return (f'<ol class="rules-steps">{items}</ol>'
            f'<section class="rules-mistakes" aria-labelledby="{heading}">'
            f'<h3 id="{heading}">{MISTAKES_TITLE}</h3><ul>{listed}</ul></section>')
