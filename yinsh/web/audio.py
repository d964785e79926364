"""The page's sounds, synthesised (PyScript, main thread): Web Audio oscillators, no file.

:mod:`yinsh.page.sounds` says what a change sounds like and what each sound is made of; this
class plays it: one ``AudioContext`` (made on the first sound, which always follows a click,
a tap or a key, as browsers require), and for every note an oscillator through a gain that
rises in a few milliseconds and fades out. Nothing is fetched. A browser without Web Audio
stays silent; a failure is a warning in the console, never an error on the page.
"""

from __future__ import annotations

from ..page.sounds import schedule
from .dom import element, warn, window

__all__ = ["Audio", "AUDIO"]

_QUIET = 0.0001
"""The gain a note rises from and fades to (an exponential ramp cannot reach 0)."""


class Audio:
    """Plays the sounds of :data:`yinsh.page.sounds.CUES`."""

    def __init__(self) -> None:
        self.context = None
        self.failed = False

    def _context(self):
        if self.context is None:
            maker = element(getattr(window, "AudioContext", None))
            maker = maker or element(getattr(window, "webkitAudioContext", None))  # older Safari
            if maker is None:
                self.failed = True
                return None
            self.context = maker.new()
        if str(self.context.state) == "suspended":
            self.context.resume()
        return self.context

    def play(self, cues: tuple[str, ...]) -> None:
        """Play ``cues`` one after the other, from now."""
        if self.failed:
            return
        try:
            context = self._context()
            if context is None:
                return
            now = float(context.currentTime) + 0.01
            for start, note in schedule(cues):
                begin = now + start / 1000
                end = begin + note.ms / 1000
                tone = context.createOscillator()
                tone.type = note.wave
                tone.frequency.setValueAtTime(note.hz, begin)
                if note.to_hz != note.hz:
                    tone.frequency.exponentialRampToValueAtTime(note.to_hz, end)
                level = context.createGain()
                level.gain.setValueAtTime(_QUIET, begin)
                level.gain.exponentialRampToValueAtTime(note.gain, begin + 0.012)
                level.gain.exponentialRampToValueAtTime(_QUIET, end)
                tone.connect(level)
                level.connect(context.destination)
                tone.start(begin)
                tone.stop(end + 0.02)
        except Exception as exc:
            self.failed = True
            warn("the sound could not be played", exc)


AUDIO = Audio()
"""The page's one player (one ``AudioContext``): the view plays the moves, the switch a sample."""
