"""The lines of code outside a title's own folder that name the title: what adding a title
needs beyond its package (issue 35's target: only the registry line). Comments and
docstrings are not counted (they name titles as examples); strings and names in code are.

    python tools/title_reach.py            # every title of the registry
    python tools/title_reach.py --list     # and each line, with its file and number
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path

from tresham.titles.registry import titles

SRC = Path(__file__).resolve().parent.parent / "src" / "tresham"
#: The files of the package that may name a title: its code and the browser's.
PATTERNS = ("*.py", "*.js", "*.html", "*.css")
_JS_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _python_code(text: str) -> Iterator[tuple[int, str]]:
    """(line number, token text) of every name and every string that is not a docstring."""
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        # a string opening a logical line is a docstring (or a bare string statement)
        docstring = tok.type == tokenize.STRING and previous in (
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.NL,
        )
        if tok.type in (tokenize.NAME, tokenize.STRING) and not docstring:
            yield tok.start[0], tok.string
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type


def _other_code(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of a browser file, its comments blanked (their lines kept)."""
    bare = _JS_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
    yield from enumerate(bare.splitlines(), start=1)


def reach(title: str) -> list[tuple[str, int]]:
    """(file, line) of each line of code outside the title's folder that names it."""
    own = SRC / "titles" / f"t{title}"
    out: set[tuple[str, int]] = set()
    for pattern in PATTERNS:
        for path in sorted(SRC.rglob(pattern)):
            if own in path.parents:
                continue
            text = path.read_text("utf-8")
            tokens = _python_code(text) if path.suffix == ".py" else _other_code(text)
            for line, token in tokens:
                if title in token:
                    out.add((str(path.relative_to(SRC.parent.parent)), line))
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="each line, with its place")
    args = parser.parse_args(argv)
    for title in titles():
        lines = reach(title)
        print(f"{title}: {len(lines)} lines outside titles/t{title}/")
        if args.list:
            for path, line in lines:
                print(f"  {path}:{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
