"""The built site's modules for MicroPython, read from one file: imported by a page before the package.

``yinsh build-site`` sends a MicroPython page its modules (precompiled, ``.mpy``) as one file,
:data:`NAME`, instead of some forty: one request instead of forty is most of what a repeat
visit waits for. Importing this module mounts that file as a read-only file system at
:data:`MOUNT`, first on ``sys.path``, so ``import`` reads each module out of it: no copy of
each is written out first. In development (``make play``) the modules are files already and
there is nothing to do. The format: one line of JSON, ``[[path, size], …]``, then the files'
bytes one after another, in that order.

A bundle fetched later (a live room's modules, when a room opens) joins the mounted one
(:func:`add`): a package's modules must sit in the one folder it was imported from.
"""

import io
import json
import sys

import vfs

NAME = "page.bundle"
"""Where the page's config puts the bundle (the site builder writes the same name)."""

MOUNT = "/bundle"
"""Where the bundle's files are seen."""

_FILE = 0o100000
_FOLDER = 0o040000
_ENOENT = 2
_EROFS = 30


class BundleFS:
    """The files of a bundle as a read-only file system (MicroPython's protocol for a
    file system written in Python: ``vfs.mount`` calls ``mount``, ``import`` calls ``stat``
    and ``open``)."""

    def __init__(self, data):
        self.files = {}  # path -> (bytes, offset, size)
        self.folders = {""}
        self.add(data)

    def add(self, data):
        """Add the files of another bundle (a file already there is replaced)."""
        end = data.index(b"\n")
        view = memoryview(data)
        offset = end + 1
        for path, size in json.loads(data[:end]):
            self.files[path] = (view, offset, size)
            folder = path.rpartition("/")[0]
            while folder not in self.folders:
                self.folders.add(folder)
                folder = folder.rpartition("/")[0]
            offset += size

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def stat(self, path):
        path = path.strip("/")
        if path in self.files:
            return (_FILE, 0, 0, 0, 0, 0, self.files[path][2], 0, 0, 0)
        if path in self.folders:
            return (_FOLDER, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(_ENOENT)

    def open(self, path, mode):
        if "w" in mode or "a" in mode or "+" in mode:
            raise OSError(_EROFS)
        entry = self.files.get(path.strip("/"))
        if entry is None:
            raise OSError(_ENOENT)
        view, offset, size = entry
        return io.BytesIO(view[offset:offset + size])

    def ilistdir(self, path):
        folder = path.strip("/")
        if folder not in self.folders:
            raise OSError(_ENOENT)
        prefix = folder + "/" if folder else ""
        for name in sorted(self.folders | set(self.files)):
            if name.startswith(prefix) and name != folder and "/" not in name[len(prefix):]:
                yield (name[len(prefix):], _FOLDER if name in self.folders else _FILE, 0)


mounted = None
"""The :class:`BundleFS` mounted, or ``None`` (development: the modules are files)."""


def mount(name=NAME):
    """Mount the bundle at :data:`MOUNT`, first on ``sys.path``; nothing when there is no bundle."""
    global mounted
    try:
        source = open(name, "rb")
    except OSError:
        return
    with source:
        data = source.read()
    mounted = BundleFS(data)
    vfs.mount(mounted, MOUNT)
    sys.path.insert(0, MOUNT)


def add(data):
    """Add the modules of another bundle (its bytes) to the mounted one, where ``import`` finds
    them beside the page's own; ``OSError`` when no bundle is mounted."""
    if mounted is None:
        raise OSError(_ENOENT)
    mounted.add(data)


mount()
