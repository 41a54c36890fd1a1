"""Sphinx roles in fastttt's docstrings (``:func:`solve```, ``:mod:`fastttt.values```) as
links in the API reference: a griffe extension that mkdocs.yml loads for mkdocstrings.

Each role becomes an optional cross-reference: a link where the target is documented on the
site, plain code where it is not (a kernel module, say), never a broken-reference warning. A
name that does not start with ``fastttt`` is looked up in the docstring's class (for a class or
its members), then in its module.
"""

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|exc|obj):`(~?)([\w.]+)`")


def _link(match: re.Match[str], scope: str, module: str) -> str:
    short, target = match.group(1), match.group(2).lstrip(".")
    title = target.rsplit(".", 1)[-1] if short else target
    if target.startswith("fastttt"):
        first, second = target, target
    else:  # the class's own member, else the module's name
        first, second = f"{scope}.{target}", f"{module}.{target}"
    fallback = "" if second == first else f' slug="{second}"'
    return f'<autoref identifier="{first}"{fallback} optional><code>{title}</code></autoref>'


class SphinxRoles(griffe.Extension):
    """Rewrites the roles of every docstring once the object tree is built."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None or ":`" not in obj.docstring.value:
            return
        scope = obj.path if obj.is_module or obj.is_class else obj.parent.path  # type: ignore[union-attr]
        module = obj.module.path
        obj.docstring.value = ROLE.sub(lambda m: _link(m, scope, module), obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """The top package itself (``on_object`` sees only its members)."""
        self.on_object(obj=pkg)
