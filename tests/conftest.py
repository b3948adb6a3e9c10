"""The suite keeps its parser caches (Lark's tables, the syntax trees of rule texts) in a
folder of its own, removed at the end, so the thousands of made-up texts it parses never
crowd a user's cache of their own packs' trees. A run that sets MEEPLE_CACHE_DIR itself
keeps its own."""
import atexit
import os
import shutil
import tempfile

if "MEEPLE_CACHE_DIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="meeple-test-cache-")      # private to this user (0700)
    os.environ["MEEPLE_CACHE_DIR"] = _folder
    atexit.register(shutil.rmtree, _folder, True)                 # after the caches are written (last in, first out)
