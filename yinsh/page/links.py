"""The page's links: the game a URL opens, and the links that reopen or hand on a game
(browser-free).

:func:`open_page` reads the page's query and hash (:mod:`yinsh.page.urls`) and decides the
game and players it opens — the link's game, the saved game (:mod:`yinsh.page.saved`) or a new
one — and whether showing it would replace a game in progress (the link policy).
:func:`game_url` is the link that reopens the game in its current state, :func:`opponent_url`
the one that hands it to the opponent.

>>> setup = open_page("?white=human&black=ai-3", "#record=1.e3%202.a5")
>>> setup.game.record(), setup.players
('1.e3 2.a5', {'white': 'human', 'black': 'ai-3'})
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..compat import capitalize
from ..errors import NotationError, YinshError
from ..game import COLORS, Game
from ..link import decode_game, encode_game
from ..scan import lower, strip
from ..state import apply_move, legal_moves
from .saved import SavedGame, SavedGameError, saved_from_json
from .settings import REMOTE, Settings, ai_level, settings_from_params
from .urls import quote, read_params
from .words import shorten

__all__ = ["PageSetup", "LiveLink", "live_link", "open_page", "game_url", "opponent_url", "from_the_start",
           "opponent_link_use",
           "continues_game", "replaces_game_in_progress", "moves_chosen_for"]


class PageSetup(NamedTuple("PageSetup", [("game", Game), ("players", "dict[str, str]"), ("notices", "list[str]"),
                                         ("settings", Settings), ("source", str), ("set_aside", "str | None"),
                                         ("previous", "tuple[Game, Settings] | None")])):
    """What the page opens: the game, who plays each colour, and notices for the player.

    - ``settings``: the "New game" choice the game is played with;
    - ``source``: where ``game`` comes from: ``"link"`` (the URL's game), ``"saved"`` (the
      saved game), ``"current"`` (the game the page was showing, kept because the link was
      bad) or ``"new"``;
    - ``set_aside``: saved data that could not be read, to keep under another key (for a bug
      report) before the next autosave replaces it; ``None`` when there is none;
    - ``previous``: the game in progress that showing ``game`` would replace, with its
      settings: a game with moves, not over, that ``game`` does not continue. Ask before
      replacing it (and keep it if the player says no); ``None`` when nothing would be lost.
    """

    __slots__ = ()

    def __new__(cls, game: Game, players: dict[str, str], notices: list[str], settings: Settings | None = None,
                source: str = "new", set_aside: str | None = None,
                previous: tuple[Game, Settings] | None = None) -> PageSetup:
        return super().__new__(cls, game, players, notices, Settings() if settings is None else settings, source,
                               set_aside, previous)


def open_page(search: str = "", hash_: str = "", stored: Settings | None = None,
              saved: str | None = None, current: tuple[Game, Settings] | None = None) -> PageSetup:
    """The game and players the page's URL asks for; never raises.

    When the URL names no player and no variant, the ``stored`` settings (``localStorage``)
    apply. A link's game is ``g`` (a whole-game code, what the page writes), ``record`` or
    ``position``, in that order of preference. When the URL names no game, no player and no
    variant, the ``saved`` game (:mod:`yinsh.page.saved` JSON text) reopens with its settings.

    A link's game must start from the first move, unless the link says it is a study
    (``position=``, or ``study=1`` with ``g=`` or ``record=``); a game played by link
    (``you=``) always starts from the first move, so a link cannot slip in a position.

    A bad link changes nothing: the notice says why, and the game stays — ``current`` (the
    game the page shows, with its settings, when a link is opened in a running page), else the
    saved game, else a fresh one. Saved data that cannot be read gives a notice and comes back
    in :attr:`PageSetup.set_aside`. :attr:`PageSetup.previous` is the game in progress that
    the setup's game would replace without continuing it: ask first.

    >>> open_page("", "#g=G1HDl_vAAADMw&you=black").game.record()
    '1.e3 2.a5 3.b5'
    >>> setup = open_page("", "#g=G1Y1B8L1DP6qIFvRPsGFhhpAGSDLfKiLsGlTUf-tm.BgAABzS")  # a set-up start
    >>> setup.source, setup.game.ply, setup.notices[0][:74]
    ('new', 0, 'Could not open the game code in the link (it starts from a set-up position')
    """
    stored = stored or Settings()
    notices: list[str] = []
    unreadable = None
    try:
        params = read_params(search, hash_)
    except YinshError as exc:
        params, unreadable = {}, str(exc)
    settings, problems = settings_from_params(params, stored)
    notices += problems
    restored, set_aside = _read_saved(saved, params, notices)
    opening = _Opening(settings, notices, current, restored, set_aside, lower(strip(params.get("you", ""))))
    if unreadable is not None:
        return opening.keep(f"Could not read the link ({shorten(unreadable)}).")
    sources = [(key, strip(params.get(key, ""))) for key in ("g", "record", "position")]
    given = [(key, value) for key, value in sources if value]
    if len(given) > 1:
        notices.append(f"The link gives a game in {len(given)} forms: the {_FORM_NAMES[given[0][0]]} is used.")
    if given:
        what, text = given[0]
        try:
            game = _link_game(what, text, params)
        except (YinshError, ValueError) as exc:
            return opening.keep(f"Could not open the {_FORM_NAMES[what]} in the link ({shorten(str(exc))}).")
        if "variant" not in params:
            settings = settings._replace(variant=game.variant)  # a new game goes on with the link's rules
        return opening.setup(game, settings, "link")
    if any(key in params for key, _ in sources):
        notices.append("The link's game is empty: a new game has started.")
    elif restored and not _names_a_game(params):
        return opening.setup(restored.game, restored.settings, "saved")
    return opening.setup(Game(settings.variant), settings, "new")  # type: ignore[arg-type]


def _read_saved(saved: str | None, params: dict[str, str], notices: list[str]) -> tuple[SavedGame | None, str | None]:
    """The saved game, and the saved text set aside when it cannot be read (a notice says so)."""
    if not saved:
        return None, None
    try:
        return saved_from_json(saved), None
    except SavedGameError as exc:
        fresh = "" if _names_a_game(params) else " A new game has started."
        notices.append(f"Your saved game could not be read: {shorten(str(exc))}. It is kept aside.{fresh}")
        return None, saved


class _Opening:
    """What :func:`open_page` answers with, once it knows the link's settings, the notices so far,
    the game in progress (the page's ``current``, else the ``restored`` saved game) and the
    colour the link says is ``you``'s."""

    def __init__(self, settings: Settings, notices: list[str], current: tuple[Game, Settings] | None,
                 restored: SavedGame | None, set_aside: str | None, you: str) -> None:
        self.settings = settings
        self.notices = notices
        self.current = current
        self.restored = restored
        self.in_progress = current or ((restored.game, restored.settings) if restored else None)
        self.set_aside = set_aside
        self.you = you

    def setup(self, game: Game, chosen: Settings, source: str) -> PageSetup:
        """The page opens ``game`` (from ``source``) with ``chosen`` settings; ``previous`` is the
        game in progress when it would be replaced without being continued: ask first."""
        previous, in_progress, you = None, self.in_progress, self.you
        if in_progress and replaces_game_in_progress(game, in_progress[0]):
            previous = in_progress
        elif in_progress and source == "link" and you in COLORS and not in_progress[0].result:
            chosen_here = moves_chosen_for(you, game, in_progress[0])
            if chosen_here and in_progress[0].moves:
                previous = in_progress  # an opponent's link brings their moves only: ask first
                self.notices.append(f"The link also plays for you ({capitalize(you)}: {', '.join(chosen_here)}), "
                                    "not only your opponent's moves.")
        if chosen.white == chosen.black == REMOTE:
            self.notices.append("Both sides play by link on their own devices: nobody plays on this page, "
                                "it only shows the game.")
        return PageSetup(game, chosen.players, self.notices, chosen, source, self.set_aside, previous)

    def keep(self, problem: str) -> PageSetup:
        """The link is refused: the game in progress stays (the page's, else the saved one)."""
        if self.current:
            kept, source, stays = self.current, "current", "The game stays as it was."
        elif self.restored:
            kept, source, stays = (self.restored.game, self.restored.settings), "saved", "Your saved game is open."
        else:
            settings = self.settings
            kept, source, stays = (Game(settings.variant), settings), "new", "A new game has started."  # type: ignore
        self.notices.append(f"{problem} {stays}")
        return PageSetup(kept[0], kept[1].players, self.notices, kept[1], source, self.set_aside, None)


def _names_a_game(params: dict[str, str]) -> bool:
    return any(key in params for key in ("g", "record", "position", "white", "black", "variant", "you"))


def _link_game(what: str, text: str, params: dict[str, str]) -> Game:
    """The game a link gives as ``what`` (``g``, ``record`` or ``position``), if the link may give
    it: from the first move unless the link says it is a study, and always for play by link."""
    if what == "g":
        game = decode_game(text)
    elif what == "record":
        game = Game.from_record(text)
    else:
        game = Game.from_position(text)
    if from_the_start(game):
        return game
    if lower(strip(params.get("you", ""))) in COLORS:
        raise NotationError("it starts from a set-up position, and a game played by link (you=) starts from the "
                            "first move")
    if what != "position" and lower(strip(params.get("study", ""))) not in ("1", "true", "yes", "on"):
        raise NotationError("it starts from a set-up position, and the link does not say it is a study (study=1)")
    return game


def from_the_start(game: Game) -> bool:
    """Whether ``game`` starts from the empty board at move 0 (not from a set-up position).

    >>> game = Game.from_record("1.e3")
    >>> from_the_start(game), from_the_start(Game.from_position(game.position()))
    (True, False)
    """
    return game.start_ply == 0 and game.start_state == Game(game.variant).start_state


def opponent_link_use(game: Game, players: dict[str, str]) -> str:
    """What a link for the opponent does in ``game`` played by ``players``, said to the person
    who copies it for the player to move; '' where it means nothing: a computer plays, or the
    game is over between people at one device.

    In a game in progress between people, the player to move plays by link (or could): they
    play their move and send a link back. Once the game is over, a link still shows the end
    to an opponent who plays by link.

    >>> opponent_link_use(Game.from_record("1.e3"), {"white": "human", "black": "human"})[:30]
    'They play their move and send '
    >>> opponent_link_use(Game.from_record("1.e3"), {"white": "human", "black": "ai-2"})
    ''
    """
    if any(ai_level(kind) is not None for kind in players.values()):
        return ""
    if game.result is None:
        return "They play their move and send you a link back."
    if REMOTE in players.values():
        return "It shows them how the game ended."
    return ""


def continues_game(game: Game, earlier: Game) -> bool:
    """Whether ``game`` is ``earlier`` with or without more moves: the same start and rules,
    and ``earlier``'s moves first (a link from the opponent after their move continues the
    game on this device; any other game does not).

    >>> start = Game.from_record("1.e3 2.a5")
    >>> continues_game(Game.from_record("1.e3 2.a5 3.b5"), start), continues_game(Game.from_record("1.e3"), start)
    (True, False)
    """
    moves = earlier.moves
    return (game.start_ply == earlier.start_ply and game.start_state == earlier.start_state
            and game.moves[:len(moves)] == moves)


def replaces_game_in_progress(game: Game, earlier: Game) -> bool:
    """Whether showing ``game`` instead of ``earlier`` throws away a game in progress: ``earlier``
    has moves, is not over, and ``game`` does not continue it.

    >>> earlier = Game.from_record("1.e3 2.a5")
    >>> replaces_game_in_progress(Game(), earlier), replaces_game_in_progress(Game(), Game())
    (True, False)
    """
    return bool(earlier.moves) and earlier.result is None and not continues_game(game, earlier)


def moves_chosen_for(color: str, game: Game, earlier: Game) -> list[str]:
    """The moves ``game`` adds to ``earlier`` (which it continues) that ``color`` chose: made
    by ``color`` when another move was legal. A link from the opponent (``you=color``) adds
    only their moves, and those the rules then force on ``color`` (a pass).

    >>> earlier = Game.from_record("1.e3")
    >>> moves_chosen_for("white", Game.from_record("1.e3 2.a5"), earlier)
    []
    >>> moves_chosen_for("white", Game.from_record("1.e3 2.a5 3.b5"), earlier)
    ['b5']
    """
    out = []
    state = earlier.state
    for move in game.moves[len(earlier.moves):]:
        if COLORS[state.turn] == color and len(legal_moves(state)) > 1:
            out.append(str(move))
        state = apply_move(state, move)
    return out


_FORM_NAMES: Final = {"g": "game code", "record": "record", "position": "position"}


def game_url(path: str, players: dict[str, str], game: Game, settings: Settings | None = None) -> str:
    """The link that reopens ``game`` with the same players (for ``history.replaceState``);
    with ``settings``, their query (players, variant, pace) instead of ``players``. The game
    is its whole-game code (:mod:`yinsh.link`): history included, so the move list and undo
    work on the other end; a game with no moves from a set-up position is its position code.

    >>> g = Game(); _ = g.play("e3")
    >>> game_url("/index.html", {"white": "human", "black": "ai-2"}, g)
    '/index.html?black=ai-2#g=G1PAAABkd'
    >>> game_url("/", {}, Game("blitz"), Settings("ai-1", "ai-1", "blitz", 0)).partition("#")[0]
    '/?white=ai-1&black=ai-1&variant=blitz&delay=0'
    """
    if settings is not None:
        query = settings.query()
    else:
        query = "&".join(f"{c}={quote(players[c])}" for c in COLORS if players.get(c, "human") != "human")
    if game.moves and not from_the_start(game):
        query += ("&" if query else "") + "study=1"  # a link to a game from a set-up position says so
    url = path + (f"?{query}" if query else "")
    if game.moves:
        url += "#g=" + encode_game(game)
    elif game.start_state != Game().start_state or game.start_ply:
        url += "#position=" + game.position()
    return url


def opponent_url(path: str, game: Game, settings: Settings) -> str:
    """The link to send to the player to move: it opens ``game`` with them playing their
    side on their device and the other side marked as playing by link (``you=…``).

    >>> g = Game(); _ = g.play("e3")
    >>> opponent_url("/", g, Settings())
    '/?you=black#g=G1PAAABkd'
    >>> opponent_url("/", g, Settings(variant="blitz")).partition("#")[0]
    '/?you=black&variant=blitz'

    Play by link starts from the first move: raises ``ValueError`` for a game from a set-up
    position (check :func:`from_the_start` before offering the link).
    """
    if not from_the_start(game):
        raise ValueError("a game from a set-up position cannot be played by link: it starts from the first move")
    white_moves = COLORS[game.state.turn] == "white"
    remote = Settings("human" if white_moves else REMOTE, REMOTE if white_moves else "human", settings.variant)
    return game_url(path, remote.players, game, remote)


class LiveLink(NamedTuple("LiveLink", [("room", str), ("relay", str), ("colours", str), ("clock", str)])):
    """What a live room's link asks: the room (``new`` for a new one, ``""`` for none), the
    relay when the link names it, the first seat's colour of a new room and its time control
    (``3+2``, ``2d``: read when the room is opened, which says what is wrong with one)."""

    __slots__ = ()


def live_link(search: str = "", hash_: str = "") -> LiveLink:
    """The live room the page's URL opens (``?live=<room>&relay=ws://…``,
    ``?live=new&colours=black&clock=3+2``); the room's name is checked when its code has loaded
    (a bad one keeps the game shown). A ``+`` in a query is a space: ``clock=3 2`` is ``3+2``.

    >>> live_link("?live=new&relay=ws%3A%2F%2F127.0.0.1%3A9222")
    LiveLink(room='new', relay='ws://127.0.0.1:9222', colours='white', clock='none')
    >>> live_link("?live=new&clock=0.25+0").clock
    '0.25+0'
    >>> live_link("", "#record=1.e3").room
    ''
    """
    try:
        params = read_params(search, hash_)
    except YinshError:
        return LiveLink("", "", "white", "none")
    clock = params.get("clock", "none").strip().replace(" ", "+")
    return LiveLink(params.get("live", ""), params.get("relay", ""), params.get("colours", "white"), clock)
