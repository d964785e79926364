"""The page's sounds (yinsh.page.sounds): which ones a change makes, and what each is made of."""

from __future__ import annotations

import doctest

import yinsh.page.sounds
from yinsh.page.sounds import CUES, SOUNDS, schedule


def test_doctests():
    failures, tried = doctest.testmod(yinsh.page.sounds)
    assert tried and not failures


class TestCues:
    def test_every_cue_has_soft_notes(self):
        assert sorted(SOUNDS) == sorted(CUES)
        for cue in CUES:
            for note in SOUNDS[cue]:
                assert 0 < note.gain <= 0.2 and 20 <= note.hz <= 4000 and 20 <= note.ms <= 600

    def test_a_schedule_plays_the_cues_in_order(self):
        starts = [start for start, _ in schedule(("move", "flip", "row"))]
        assert starts == sorted(starts) and starts[0] == 0
