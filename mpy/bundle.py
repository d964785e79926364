"""The built site's modules for MicroPython, unpacked: imported by a page before the package.

``yinsh build-site`` sends a MicroPython page its modules (precompiled, ``.mpy``) as one file,
:data:`NAME`, instead of some forty: one request instead of forty is most of what a repeat
visit waits for. Importing this module writes them into the interpreter's file system, where
``import`` finds them. In development (``make play``) the modules are files already and there
is nothing to unpack. The format: one line of JSON, ``[[path, size], …]``, then the files'
bytes one after another, in that order.
"""

import json
import os

NAME = "page.bundle"
"""Where the page's config puts the bundle (the site builder writes the same name)."""


def _make_folders(folder):
    parts = folder.split("/")
    for end in range(1, len(parts) + 1):
        try:
            os.mkdir("/".join(parts[:end]))
        except OSError:  # it exists already
            pass


def unpack(name=NAME):
    """Write the bundle's files where its index says; nothing when there is no bundle."""
    try:
        source = open(name, "rb")
    except OSError:
        return
    with source:
        data = source.read()
    end = data.index(b"\n")
    view = memoryview(data)
    offset = end + 1
    made = {""}
    for path, size in json.loads(data[:end]):
        folder = path.rpartition("/")[0]
        if folder not in made:
            _make_folders(folder)
            made.add(folder)
        with open(path, "wb") as target:
            target.write(view[offset:offset + size])
        offset += size


unpack()
