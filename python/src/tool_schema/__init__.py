"""tool-schema from Python: one ``tool-schema --stream`` coprocess per :class:`Catalog`.

Declarations come back as the dicts to put in a provider's ``tools``; a call, as the dict the
provider's SDK gives, comes back as a :class:`Verdict`. A request the binary refuses raises
:class:`ToolSchemaError` with its stable code; a wrong call is not an error but a verdict with
``ok`` false. One ``Catalog`` may be shared by threads; each request carries an id that its answer echoes.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

__all__ = [
    "Catalog",
    "CallStream",
    "Problem",
    "ProcessDied",
    "ToolSchemaError",
    "Verdict",
    "find_binary",
]

_EXE = "tool-schema" + (".exe" if sys.platform == "win32" else "")


def find_binary() -> str:
    """The ``tool-schema`` binary this package installed (the scripts directory of its
    environment, then the user scheme's), else the one on ``PATH``."""
    schemes = [sysconfig.get_default_scheme()]
    user = "nt_user" if os.name == "nt" else "posix_user"
    if user in sysconfig.get_scheme_names():
        schemes.append(user)
    for scheme in schemes:
        candidate = Path(sysconfig.get_path("scripts", scheme=scheme)) / _EXE
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(_EXE)
    if found:
        return found
    raise FileNotFoundError(f"{_EXE} is not installed beside this package, nor on PATH")


class ToolSchemaError(Exception):
    """A request the binary refused: ``code`` is the stable code of docs/errors.md."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ProcessDied(ToolSchemaError):
    """The coprocess ended: every request in flight, and every later one, gets this, with what
    the process wrote on standard error."""

    def __init__(self, stderr: str) -> None:
        super().__init__("io", f"the tool-schema process ended; its standard error: {stderr!r}")
        self.stderr = stderr


@dataclass(frozen=True)
class Problem:
    """One problem with a call: its code (docs/checking-calls.md), JSON Pointer and message."""

    code: str
    path: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """The verdict on one call: the canonical ``arguments`` when ``ok``, else the ``problems``
    and the ``reply`` to send the model, in the provider's shape."""

    ok: bool
    name: Optional[str]
    id: Optional[str] = None
    arguments: Optional[Dict[str, Any]] = None
    problems: Tuple[Problem, ...] = ()
    reply: Optional[Dict[str, Any]] = None

    @staticmethod
    def of(answer: Dict[str, Any]) -> "Verdict":
        return Verdict(
            ok=answer["ok"],
            name=answer.get("name"),
            id=answer.get("id"),
            arguments=answer.get("arguments"),
            problems=tuple(Problem(**problem) for problem in answer.get("errors", ())),
            reply=answer.get("reply"),
        )


class Catalog:
    """One ``tool-schema --stream`` process, over the compiled-in catalog or the catalog file at
    ``path`` (an MCP ``tools/list`` array or result). A tool of the file that breaks a rule is
    left out, and listed in ``refused``; with ``strict``, the whole file is refused."""

    def __init__(
        self,
        path: Union[str, Path, None] = None,
        *,
        strict: bool = False,
        binary: Optional[str] = None,
    ) -> None:
        self._process = subprocess.Popen(
            [binary or find_binary(), "--stream"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._died: Optional[ProcessDied] = None
        self._streams = itertools.count()
        self.refused: List[Dict[str, Any]] = []
        self.tools: Optional[int] = None
        if path is not None:
            try:
                self.use_catalog(path, strict=strict)
            except BaseException:
                self.close()
                raise

    # The ops -------------------------------------------------------------------------------

    def declarations(
        self, format: str = "openai", strict: bool = False, skip_unsupported: bool = False
    ) -> Any:
        """Every tool's declaration, as one list (``tool_list``); with ``skip_unsupported``,
        ``{"skipped": [...], "tools": [...]}``."""
        request = {"op": "tool_list", "format": format, "strict": strict}
        if skip_unsupported:
            request["skip_unsupported"] = True
        return self._ask(request)

    def tool_schema(self, name: str, format: str = "openai", strict: bool = False) -> Any:
        """One tool's declaration."""
        return self._ask({"op": "tool_schema", "tool": name, "format": format, "strict": strict})

    def check_call(self, format: str, call: Any, strict: bool = False) -> Verdict:
        """The verdict on one call, as the provider returned it."""
        request = {"op": "check_call", "format": format, "strict": strict, "call": call}
        return Verdict.of(self._ask(request))

    def check_turn(self, format: str, turn: Any, strict: bool = False) -> List[Verdict]:
        """The verdict on each call of one assistant turn."""
        request = {"op": "check_turn", "format": format, "strict": strict, "turn": turn}
        return [Verdict.of(call) for call in self._ask(request)["calls"]]

    def tool_choice(
        self, format: str, choice: Union[str, Dict[str, str]], parallel: Optional[bool] = None
    ) -> Any:
        """The provider's request fields for ``choice``: ``"auto"``, ``"none"``,
        ``"required"`` or ``{"tool": name}``."""
        request: Dict[str, Any] = {"op": "tool_choice", "format": format, "choice": choice}
        if parallel is not None:
            request["parallel"] = parallel
        return self._ask(request)

    def stream(self, format: str, strict: bool = False) -> "CallStream":
        """A provider's streamed response, for the calls in it."""
        return CallStream(self, f"py-{next(self._streams)}", format, strict)

    def use_catalog(self, path: Union[str, Path], strict: bool = False) -> Dict[str, Any]:
        """Reads the catalog file at ``path`` for every later request."""
        answer = self._ask({"op": "use_catalog", "path": os.fspath(path), "strict": strict})
        self.refused, self.tools = answer["refused"], answer["tools"]
        return answer

    # The process ---------------------------------------------------------------------------

    def close(self) -> None:
        """Ends the process; requests after this raise :class:`ProcessDied`."""
        if self._process.stdin and not self._process.stdin.closed:
            try:
                self._process.stdin.close()
            except OSError:
                pass
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for pipe in (self._process.stdout, self._process.stderr):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> "Catalog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ask(self, request: Dict[str, Any]) -> Any:
        # One request in flight at a time: the binary answers in order, so threads gain nothing
        # by sending ahead, and the caller reads its own answer (a hand-off to a reader thread
        # costs more than the check). The echoed id proves the answer is this request's.
        with self._lock:
            if self._died is not None:
                raise self._died
            request_id = next(self._ids)
            line = json.dumps(dict(request, id=request_id), ensure_ascii=False) + "\n"
            assert self._process.stdin is not None and self._process.stdout is not None
            try:
                self._process.stdin.write(line.encode("utf-8"))
                self._process.stdin.flush()
                answer_line = self._process.stdout.readline()
            except (OSError, ValueError):
                answer_line = b""
            if not answer_line:
                raise self._death()
        answer = json.loads(answer_line)
        # A line too long to read for its id (too_large) is answered without one.
        if answer.get("id", request_id) != request_id:
            raise ToolSchemaError("internal", f"an answer out of step: {answer_line[:200]!r}")
        if "error" in answer:
            error = answer["error"]
            raise ToolSchemaError(error["code"], error["message"])
        return answer["answer"]

    def _death(self) -> ProcessDied:
        """Called with the lock held, once the process's output has ended."""
        if self._died is None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            # Standard error is read once the process has ended: the binary writes there only
            # as it fails (stream mode reports a request's error on standard output), so no
            # thread has to drain it while it runs.
            assert self._process.stderr is not None
            stderr = self._process.stderr.read(64 * 1024)
            self._died = ProcessDied(stderr.decode("utf-8", "replace"))
        return self._died


class CallStream:
    """One streamed response, from :meth:`Catalog.stream`: ``push`` each event as the
    provider's SDK gives it, as a dict; it returns the calls that event settled, as
    ``(index, verdict)`` pairs."""

    def __init__(self, catalog: Catalog, name: str, format: str, strict: bool) -> None:
        self._catalog, self._name, self._format, self._strict = catalog, name, format, strict

    def push(self, event: Any) -> List[Tuple[int, Verdict]]:
        return self._send({"event": event})

    def end(self) -> List[Tuple[int, Verdict]]:
        """Ends the stream: calls still open are settled as ``truncated_arguments``."""
        return self._send({"end": True})

    def _send(self, fields: Dict[str, Any]) -> List[Tuple[int, Verdict]]:
        request = {"op": "call_delta", "format": self._format, "strict": self._strict,
                   "stream": self._name, **fields}
        answer = self._catalog._ask(request)
        return [(call["index"], Verdict.of(call["verdict"])) for call in answer["calls"]]
