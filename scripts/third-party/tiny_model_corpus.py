"""The text the tiny models of scripts/third-party/ are trained on: the docstrings of Python's
standard library, the same on every machine with the same Python. Imported by llama-tiny-model.py
and transformers-tiny-model.py (a script's own folder is on sys.path)."""
import importlib
import inspect

MODULES = ['string', 'json', 'os', 'pathlib', 'collections', 'itertools', 'functools', 're', 'random',
           'textwrap', 'argparse', 'subprocess', 'shutil', 'datetime', 'decimal', 'fractions',
           'statistics', 'csv', 'logging', 'unittest', 'http.client', 'urllib.parse', 'email.message',
           'typing', 'dataclasses', 'enum', 'heapq', 'bisect', 'tarfile', 'zipfile', 'socket', 'threading']


def docstrings():
    out = []
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except Exception:
            continue
        for _, obj in inspect.getmembers(mod):
            doc = getattr(obj, '__doc__', None)
            if isinstance(doc, str) and 40 < len(doc) < 4000:
                out.append(doc)
    return out
