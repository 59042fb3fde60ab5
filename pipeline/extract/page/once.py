"""A measure computed on first read and kept on the instance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class made_once(Generic[T]):
    """``functools.cached_property`` without the lock it takes on every first read under Python 3.11 (dropped in
    3.12): a page's lines read a few hundred thousand measures once each, and the lock tripled their cost."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self._compute = compute
        self._name = compute.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> made_once[T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...
    def __get__(self, obj: object | None, owner: type | None = None) -> T | made_once[T]:
        if obj is None:
            return self
        value = obj.__dict__[self._name] = self._compute(obj)
        return value
