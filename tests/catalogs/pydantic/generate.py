"""Build a tools/list catalog with the MCP Python SDK, the way a Python MCP server does.

Each tool is a plain function registered with `@mcp.tool()`; the SDK turns its
signature into one pydantic model (`<name>Arguments`) and sends
`model.model_json_schema(by_alias=True)` as `inputSchema`. A return type that is a
pydantic model also gives an `outputSchema`. The catalog printed on stdout is the
`tools` array exactly as `tools/list` serializes it.

Usage: see README.md beside this file.
"""

import asyncio
import json
from datetime import date, datetime, time, timedelta
from enum import Enum, IntEnum
from ipaddress import IPv4Address, IPv6Address
from typing import Annotated, Literal, Optional, Union
from uuid import UUID

from pydantic import AnyUrl, BaseModel, EmailStr, Field, HttpUrl, conint, constr

try:  # mcp >= 2: FastMCP was renamed MCPServer
    from mcp.server.mcpserver import MCPServer as FastMCP
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("workspace-agent")


# ---------- files ----------

class WriteMode(str, Enum):
    create = "create"
    overwrite = "overwrite"
    append = "append"


@mcp.tool(title="Read file", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def read_file(
    path: str,
    encoding: Literal["utf-8", "latin-1", "ascii"] = "utf-8",
    max_bytes: Optional[conint(gt=0, le=10_000_000)] = None,
) -> str:
    """Read a text file from the workspace and return its contents."""
    return ""


@mcp.tool(annotations=ToolAnnotations(title="Write file", destructiveHint=True, idempotentHint=False))
def write_file(
    path: Annotated[str, Field(min_length=1, max_length=4096, description="Path relative to the workspace root")],
    content: str,
    mode: WriteMode = WriteMode.create,
    permissions: constr(pattern=r"^0[0-7]{3}$") = "0644",
) -> str:
    """Write text to a file. Fails in `create` mode if the file already exists."""
    return "ok"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def search_files(
    root: str,
    name_patterns: set[str],
    exclude: list[str] = [".git", "node_modules"],
    max_depth: Annotated[int, Field(ge=0, le=32)] = 8,
    modified_since: Optional[datetime] = None,
    max_results: conint(ge=1, lt=1000) = 100,
) -> list[str]:
    """Find files under `root` whose names match any of the glob patterns.

    Returns workspace-relative paths, newest first."""
    return []


@mcp.tool()
def replace_lines(path: str, edits: Annotated[list[tuple[int, str]], Field(min_length=1, max_length=500)]) -> str:
    """Replace whole lines of a file. Each edit is (1-based line number, new text)."""
    return "ok"


# ---------- issue tracker ----------

class Priority(IntEnum):
    low = 1
    normal = 2
    high = 3
    urgent = 4


class IssueState(str, Enum):
    open = "open"
    in_progress = "in_progress"
    closed = "closed"


class Estimate(BaseModel):
    """Effort estimate for an issue."""

    hours: Annotated[float, Field(ge=0, le=1000, multiple_of=0.5)] = 1.0
    confidence: Literal["low", "medium", "high"] = "medium"


class IssuePatch(BaseModel):
    title: Optional[Annotated[str, Field(min_length=3, max_length=200)]] = None
    state: Optional[IssueState] = None
    priority: Optional[Priority] = None
    add_labels: set[str] = set()
    estimate: Optional[Estimate] = None


class IssueRef(BaseModel):
    id: UUID
    url: HttpUrl
    state: IssueState


@mcp.tool(title="Create issue")
def create_issue(
    title: Annotated[str, Field(min_length=3, max_length=200)],
    body: Optional[str] = None,
    priority: Priority = Priority.normal,
    labels: set[str] = set(),
    assignee: Optional[EmailStr] = None,
    due: Optional[date] = None,
    time_budget: Optional[timedelta] = None,
    custom_fields: dict[str, int] = {},
    estimate: Estimate = Estimate(),
) -> IssueRef:
    """Open a new issue in the tracker and return its id and URL."""
    raise NotImplementedError


@mcp.tool(annotations=ToolAnnotations(idempotentHint=True))
def update_issue(issue_id: UUID, changes: IssuePatch, comment: Optional[str] = None) -> IssueRef:
    """Apply a partial update to an issue. Fields left out of `changes` are not modified."""
    raise NotImplementedError


class OutlineNode(BaseModel):
    """One item of a checklist; items nest to any depth."""

    text: Annotated[str, Field(min_length=1)]
    done: bool = False
    children: list["OutlineNode"] = []


@mcp.tool()
def set_checklist(issue_id: UUID, root: OutlineNode) -> str:
    """Replace the checklist of an issue with the given tree of items."""
    return "ok"


# ---------- notifications ----------

class EmailChannel(BaseModel):
    kind: Literal["email"]
    to: list[EmailStr] = Field(min_length=1)


class SlackChannel(BaseModel):
    kind: Literal["slack"]
    channel: constr(pattern=r"^#[a-z0-9_-]{1,80}$")
    mention_here: bool = False


class WebhookChannel(BaseModel):
    kind: Literal["webhook"]
    url: HttpUrl
    secret: Optional[constr(min_length=16, max_length=128)] = None


@mcp.tool(annotations=ToolAnnotations(openWorldHint=True))
def notify(
    message: Annotated[str, Field(max_length=4000)],
    channel: Annotated[Union[EmailChannel, SlackChannel, WebhookChannel], Field(discriminator="kind")],
) -> str:
    """Send a message through one notification channel."""
    return "sent"


@mcp.tool()
def allow_webhook_sources(
    hook_url: AnyUrl,
    ipv4: list[IPv4Address] = [],
    ipv6: list[IPv6Address] = [],
    homepage: Optional[HttpUrl] = None,
) -> str:
    """Restrict which addresses may call an incoming webhook."""
    return "ok"


# ---------- calendar ----------

class Attendee(BaseModel):
    email: EmailStr
    optional: bool = False


class Room(BaseModel):
    kind: Literal["room"] = "room"
    building: str
    room: str
    capacity: Optional[conint(ge=1)] = None


class VideoCall(BaseModel):
    kind: Literal["video"] = "video"
    provider: Literal["meet", "zoom", "teams"]
    join_url: Optional[HttpUrl] = None


class Reminder(BaseModel):
    minutes_before: Annotated[int, Field(ge=0, le=40320, multiple_of=5)] = 10
    method: Literal["popup", "email"] = "popup"


class Slot(BaseModel):
    start: datetime
    end: datetime


class FreeSlots(BaseModel):
    slots: list[Slot]
    timezone: str


@mcp.tool()
def list_calendars() -> list[str]:
    """List the ids of the calendars the user can write to."""
    return []


@mcp.tool(title="Create event")
def create_event(
    calendar_id: str,
    title: Annotated[str, Field(min_length=1, max_length=255)],
    start: datetime,
    duration: timedelta = timedelta(minutes=30),
    attendees: list[Attendee] = [],
    location: Optional[Annotated[Union[Room, VideoCall], Field(discriminator="kind")]] = None,
    reminder: Reminder = Reminder(),
    event_id: Optional[UUID] = None,
) -> str:
    """Create a calendar event. `start` is an ISO 8601 date-time with an offset."""
    return "ok"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def find_free_slot(
    day: date,
    earliest: time = time(9, 0),
    latest: time = time(17, 30),
    slot_minutes: Annotated[int, Field(gt=0, lt=480, multiple_of=15)] = 30,
    attendees: Annotated[list[EmailStr], Field(max_length=50)] = [],
) -> FreeSlots:
    """Find free time slots on one day shared by all attendees."""
    raise NotImplementedError


async def main() -> None:
    tools = await mcp.list_tools()
    # What the server puts in the tools/list result: aliases (inputSchema), no nulls.
    out = [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools]
    for t in out:
        assert len(t.get("description", "").encode()) < 1024, t["name"]
    print(json.dumps(out, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main())
