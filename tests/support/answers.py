"""The statuses an API operation can answer, read from its code: what it raises (a ``UserError``
keeps its ``status``, DRF's exceptions their ``status_code``), the statuses it answers with
(``Response(status=304)``, ``error_response(404, …)``), ``get_object_or_404``, and the same of
every function of the project it calls by name (``self.throttle``, ``throttle.check``,
``services.…``), followed through the project's modules. Reading code over-approximates (a
branch never taken still counts) and misses what it cannot name (a method of a returned object):
it finds what a view plainly can answer, which its schema must then declare."""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework.exceptions import APIException

from nardy_site.api_errors import error_response
from nardy_site.errors import UserError

PROJECT = ("tournaments", "games", "nardy_site")
#: A generic view's hooks, which the framework's own handlers call.
HOOKS = (
    "initial", "get_permissions", "get_queryset", "get_object", "get_serializer",
    "get_serializer_context", "filter_queryset", "paginate_queryset", "list", "retrieve",
)  # fmt: skip


def answers_of(view: Any, method: str) -> set[int]:
    """What ``method`` (GET, POST …) of the view (a class, or a function view) can answer."""
    if not inspect.isclass(view):
        return set(_answers(view, None))
    handler = getattr(view, method.lower())
    found = set(_answers(handler, view))
    if not _in_project(handler):  # a framework's handler: it calls the view's hooks
        for name in HOOKS:
            hook = getattr(view, name, None)
            if hook is not None and _in_project(hook):
                found |= _answers(hook, view)
    for name in ("initial", "get_permissions", "check_permissions"):  # every method runs them
        hook = getattr(view, name, None)
        if hook is not None and _in_project(hook):
            found |= _answers(hook, view)
    return found


def _in_project(function: Any) -> bool:
    module = getattr(inspect.unwrap(function), "__module__", "") or ""
    return module.split(".")[0] in PROJECT and inspect.isroutine(function)


#: The functions being read: a call back into one of them (recursion) adds nothing more.
_READING: set[tuple[Any, Any]] = set()


@functools.cache
def _answers(function: Callable[..., Any], view: type | None) -> frozenset[int]:
    function = inspect.unwrap(function)
    if (function, view) in _READING:
        return frozenset()
    _READING.add((function, view))
    try:
        return _answers_read(function, view)
    finally:
        _READING.discard((function, view))


def _answers_read(function: Callable[..., Any], view: type | None) -> frozenset[int]:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    found: set[int] = set()
    names = getattr(function, "__globals__", {})
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            found |= _status_of_class(_resolve(raised, names, view))
        elif isinstance(node, ast.Call):
            target = _resolve(node.func, names, view)
            for keyword in node.keywords:
                if keyword.arg == "status":
                    value = _resolve(keyword.value, names, view)
                    if isinstance(value, int):
                        found.add(value)
            if target is error_response and node.args:
                value = _resolve(node.args[0], names, view)
                if isinstance(value, int):
                    found.add(value)
            elif target is get_object_or_404:
                found.add(404)
            elif target is not None and _in_project(target) and target is not function:
                found |= _answers(target, view if _is_method_of(node.func) else None)
    return frozenset(found)


def _is_method_of(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and (node.value.id == "self")
    )


def _resolve(node: ast.expr, names: dict[str, Any], view: type | None) -> Any:
    """The object an expression names, when it is a name or a chain of attributes."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in names:
            return names[node.id]
        return getattr(builtins, node.id, None)
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return getattr(view, node.attr, None) if view is not None else None
        base = _resolve(node.value, names, view)
        return getattr(base, node.attr, None) if base is not None else None
    return None


def _status_of_class(raised: Any) -> set[int]:
    if not inspect.isclass(raised):
        return set()
    if issubclass(raised, UserError):
        return {raised.status}
    if issubclass(raised, APIException):
        return {raised.status_code}
    if issubclass(raised, Http404):
        return {404}
    if issubclass(raised, DjangoPermissionDenied):
        return {403}
    return set()
