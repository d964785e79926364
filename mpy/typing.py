"""``typing`` for MicroPython: the little of it the shared modules use at run time.

MicroPython 1.27 has no ``typing``. Annotations cost nothing there (it parses and drops
them), so only the names a module imports, or evaluates outside an annotation, must exist:
``TYPE_CHECKING``, the special forms used as values (``Final``, ``Literal``, ``Any``) and
``NamedTuple`` in its functional form, which the shared modules use because it names the
fields in order at run time (``class Move(NamedTuple("Move", [("kind", str), …]))``).

CPython never imports this file: it lives outside the package, and only the MicroPython
side maps it (docs/PORTABILITY.md).
"""

from collections import OrderedDict

TYPE_CHECKING = False


class _SpecialForm:
    """A stand-in for ``Final``, ``Literal``, ``Any``: subscripting it gives itself."""

    def __init__(self, name):
        self._name = name

    def __getitem__(self, parameters):
        return self

    def __repr__(self):
        return "typing." + self._name


Any = _SpecialForm("Any")
Final = _SpecialForm("Final")
Literal = _SpecialForm("Literal")
ClassVar = _SpecialForm("ClassVar")


class _NamedTupleBase:
    """What ``typing.NamedTuple`` classes give their instances, as a plain class.

    MicroPython's own ``namedtuple`` takes no defaults, has no ``_replace`` or ``_asdict``,
    and cannot be built by a subclass's ``__new__``; this class can. Fields are instance
    attributes (the fastest to read there) and ``_values`` holds them in order for
    equality, hashing, ordering, indexing and unpacking, as a tuple would. Each class gets
    its own ``__new__`` from :func:`NamedTuple`.
    """

    _fields = ()

    def __eq__(self, other):
        return self._values == (other._values if isinstance(other, _NamedTupleBase) else other)

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self._values < (other._values if isinstance(other, _NamedTupleBase) else other)

    def __le__(self, other):
        return self._values <= (other._values if isinstance(other, _NamedTupleBase) else other)

    def __gt__(self, other):
        return self._values > (other._values if isinstance(other, _NamedTupleBase) else other)

    def __ge__(self, other):
        return self._values >= (other._values if isinstance(other, _NamedTupleBase) else other)

    def __hash__(self):
        return hash(self._values)

    def __len__(self):
        return len(self._values)

    def __getitem__(self, index):
        return self._values[index]

    def __iter__(self):
        return iter(self._values)

    def __repr__(self):
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self._values))
        return f"{type(self).__name__}({inner})"

    def _replace(self, **changes):
        values = [changes.pop(name, value) for name, value in zip(self._fields, self._values)]
        if changes:
            raise ValueError(f"got unexpected field names: {list(changes)!r}")
        return type(self)(*values)

    def _asdict(self):
        return OrderedDict(zip(self._fields, self._values))


def NamedTuple(typename, fields):
    """A class whose instances hold ``fields`` (``[(name, type), …]``) in order; the types are ignored."""
    names = tuple(name for name, _ in fields)
    params = ", ".join(names)
    # A __new__ written out for these fields, as CPython's namedtuple does: no loop, no *args.
    code = (f"def __new__(cls, {params}):\n    self = object.__new__(cls)\n"
            + "".join(f"    self.{name} = {name}\n" for name in names)
            + f"    self._values = ({params},)\n    return self\n")
    scope = {}
    exec(code, scope)
    return type(typename, (_NamedTupleBase,), {"_fields": names, "__new__": scope["__new__"]})
