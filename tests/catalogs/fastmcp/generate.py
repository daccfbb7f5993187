"""A FastMCP server's `tools/list` result, as a client receives it: four tools written the way
FastMCP's documentation and its users write them, the first with the most common signature of
all, `limit: int = None` (pydantic writes `"default": null` on an integer). The server runs in
process and is asked over MCP by FastMCP's own client; the result is printed whole on stdout
(`tools`, and whatever else the server puts beside it), keys sorted, two-space indent, into
`tools-list.json`; and its `tools` array alone, the same way, into `tools.json`.
See README.md for the versions and the command.
"""
import asyncio
import json
import pathlib
from typing import Annotated, Literal, Optional

from fastmcp import Client, FastMCP
from pydantic import Field, Json

mcp = FastMCP("probe")


@mcp.tool
def search(query: str, limit: int = None) -> list[str]:
    """Search the notes for a query. Use read_note to read one, not this."""
    return []


@mcp.tool
def read_note(note_id: int, include_links: bool = False) -> str:
    """Read one note by its id. Only for ids that search returned."""
    return ""


@mcp.tool
def tag_notes(
    note_ids: Annotated[list[int], Field(min_length=1, max_length=50)],
    tag: Annotated[str, Field(max_length=40, pattern=r"^[a-z-]+$")],
    mode: Literal["add", "remove"] = "add",
    color: Optional[str] = None,
) -> int:
    """Add a tag to notes, or remove it. Do not use it to rename a tag."""
    return 0


@mcp.tool
def import_settings(settings: Json[dict[str, int]], dry_run: bool = True) -> str:
    """Import settings given as a JSON text. Never use it for notes."""
    return ""


async def main():
    async with Client(mcp) as client:
        result = await client.list_tools_mcp()
    result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    here = pathlib.Path(__file__).parent
    for name, value in [("tools-list.json", result), ("tools.json", result["tools"])]:
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        (here / name).write_text(text, encoding="utf-8")


asyncio.run(main())
