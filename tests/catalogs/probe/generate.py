"""A tools/list catalog of 15 pydantic v2 models, written for a probe of the general checker
(tests/generated_schemas.rs) by someone who had not read this repository's other catalogs:
each tool's inputSchema is `Model.model_json_schema()` (mode "validation"), and a tool whose
serialization schema differs is listed again as NAME_ser. Prints the catalog on stdout;
see README.md for the versions and the command.
"""
import json, enum, uuid, datetime
from typing import Optional, Literal, Union, Annotated
from pydantic import BaseModel, Field, StrictBool, conlist, EmailStr, HttpUrl, AnyUrl, constr, conint, confloat, ConfigDict

class Priority(str, enum.Enum):
    low = "low"; medium = "medium"; high = "high"

class Level(int, enum.Enum):
    debug = 10; info = 20; error = 40

# 1 search_web
class SearchWeb(BaseModel):
    """Search the web for a query."""
    query: Annotated[str, Field(min_length=1, max_length=400, description="Search query")]
    max_results: Annotated[int, Field(ge=1, le=50)] = 10
    safe_search: Literal["off", "moderate", "strict"] = "moderate"
    site: Optional[str] = None
    freshness_days: Optional[conint(gt=0, lt=3650)] = None

# 2 create_calendar_event: datetime, email, nested
class Attendee(BaseModel):
    email: EmailStr
    name: Optional[str] = None
    optional: StrictBool = False
class Recurrence(BaseModel):
    freq: Literal["daily", "weekly", "monthly"]
    interval: Annotated[int, Field(ge=1, le=365)] = 1
    until: Optional[datetime.date] = None
class CreateEvent(BaseModel):
    title: Annotated[str, Field(min_length=1, max_length=200)]
    start: datetime.datetime
    end: datetime.datetime
    attendees: conlist(Attendee, max_length=100) = []
    recurrence: Optional[Recurrence] = None
    location: Optional[str] = None
    priority: Priority = Priority.medium

# 3 send_notification: discriminated union
class EmailChannel(BaseModel):
    kind: Literal["email"]
    to: EmailStr
    subject: Annotated[str, Field(max_length=120)]
class SlackChannel(BaseModel):
    kind: Literal["slack"]
    channel: Annotated[str, Field(pattern=r"^#[a-z0-9_-]{1,80}$")]
class WebhookChannel(BaseModel):
    kind: Literal["webhook"]
    url: HttpUrl
    headers: dict[str, str] = {}
class SendNotification(BaseModel):
    channel: Annotated[Union[EmailChannel, SlackChannel, WebhookChannel], Field(discriminator="kind")]
    message: Annotated[str, Field(min_length=1, max_length=2000)]
    level: Level = Level.info

# 4 file tree: recursive
class TreeNode(BaseModel):
    name: Annotated[str, Field(min_length=1)]
    is_dir: StrictBool
    children: list["TreeNode"] = []
    size_bytes: Optional[Annotated[int, Field(ge=0)]] = None
class CreateTree(BaseModel):
    root: TreeNode
    overwrite: bool = False

# 5 transfer_funds: numbers
class TransferFunds(BaseModel):
    from_account: Annotated[str, Field(pattern=r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$")]
    to_account: Annotated[str, Field(pattern=r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$")]
    amount: Annotated[float, Field(gt=0, le=1_000_000, multiple_of=0.01)]
    currency: Literal["USD", "EUR", "GBP"]
    memo: Optional[Annotated[str, Field(max_length=140)]] = None
    idempotency_key: uuid.UUID

# 6 query_db: dict, tuple, list of any
class QueryDB(BaseModel):
    sql: str
    params: dict[str, Union[str, int, float, bool, None]] = {}
    limit: Annotated[int, Field(ge=1, le=10000)] = 100
    timeout_s: Annotated[float, Field(gt=0, le=300)] = 30.0
    sort: Optional[tuple[str, Literal["asc", "desc"]]] = None

# 7 geo: tuple of floats, list min/max
class PlotRoute(BaseModel):
    waypoints: Annotated[list[tuple[Annotated[float, Field(ge=-90, le=90)], Annotated[float, Field(ge=-180, le=180)]]], Field(min_length=2, max_length=25)]
    mode: Literal["driving", "walking", "cycling"] = "driving"
    avoid: set[Literal["tolls", "highways", "ferries"]] = set()

# 8 edit_file: list of edits, strict config forbid
class Edit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old_text: str
    new_text: str
class EditFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    path: Annotated[str, Field(min_length=1, max_length=4096)]
    edits: Annotated[list[Edit], Field(min_length=1)]
    dry_run: bool = False

# 9 http_request: url, headers dict, body union
class HttpRequest(BaseModel):
    method: Literal["GET", "POST", "PUT", "DELETE", "PATCH"]
    url: AnyUrl
    headers: Optional[dict[str, str]] = None
    body: Union[dict, list, str, None] = None
    timeout_ms: Annotated[int, Field(ge=100, le=60000, multiple_of=100)] = 5000

# 10 run_shell with extra="allow"
class RunShell(BaseModel):
    model_config = ConfigDict(extra="allow")
    command: Annotated[list[str], Field(min_length=1)]
    cwd: Optional[str] = None
    env: dict[str, str] = Field(default_factory=dict)

# 11 user lookup: union of ids
class LookupUser(BaseModel):
    user: Union[uuid.UUID, EmailStr, Annotated[int, Field(gt=0)]] = Field(description="id, email or numeric id")
    fields: list[Literal["name", "email", "roles", "created_at"]] = ["name"]

# 12 schedule task with time/duration
class ScheduleTask(BaseModel):
    task_name: constr(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)
    run_at: Optional[datetime.datetime] = None
    every: Optional[datetime.timedelta] = None
    at_time: Optional[datetime.time] = None
    retries: Annotated[int, Field(ge=0, le=10)] = 3
    backoff_factor: confloat(ge=1.0, le=10.0) = 2.0

# 13 nested address / order
class Address(BaseModel):
    street: str
    city: str
    postal_code: Annotated[str, Field(pattern=r"^\d{5}(-\d{4})?$")]
    country: Annotated[str, Field(min_length=2, max_length=2)] = "US"
class LineItem(BaseModel):
    sku: str
    qty: Annotated[int, Field(ge=1)]
    unit_price: Annotated[float, Field(ge=0)]
class PlaceOrder(BaseModel):
    customer_email: EmailStr
    shipping: Address
    billing: Optional[Address] = None
    items: conlist(LineItem, min_length=1, max_length=50)
    coupon: Optional[str] = None

# 14 Non-discriminated union of models
class Circle(BaseModel):
    radius: Annotated[float, Field(gt=0)]
class Rect(BaseModel):
    width: Annotated[float, Field(gt=0)]
    height: Annotated[float, Field(gt=0)]
class DrawShape(BaseModel):
    shape: Union[Circle, Rect]
    color: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] = "#000000"
    label: Optional[str] = Field(default=None, title="Label text", description="Optional label")

# 15 IP / misc + strict bool + bytes? + frozenset
from pydantic import IPvAnyAddress
class FirewallRule(BaseModel):
    source_ip: IPvAnyAddress
    port: Annotated[int, Field(ge=1, le=65535)]
    protocol: Literal["tcp", "udp"] = "tcp"
    allow: StrictBool
    tags: Annotated[list[str], Field(max_length=5)] = []
    expires: Optional[datetime.datetime] = None

MODELS = {"search_web": SearchWeb, "create_calendar_event": CreateEvent, "send_notification": SendNotification,
  "create_tree": CreateTree, "transfer_funds": TransferFunds, "query_db": QueryDB, "plot_route": PlotRoute,
  "edit_file": EditFile, "http_request": HttpRequest, "run_shell": RunShell, "lookup_user": LookupUser,
  "schedule_task": ScheduleTask, "place_order": PlaceOrder, "draw_shape": DrawShape, "firewall_rule": FirewallRule}
allt = []
for name, M in MODELS.items():
    for mode in ("validation", "serialization"):
        s = M.model_json_schema(mode=mode)
        n = "py_" + name + ("" if mode == "validation" else "_ser")
        if mode == "serialization" and s == M.model_json_schema():
            continue
        allt.append({"name": n, "description": (M.__doc__ or name).strip(), "inputSchema": s})
print(json.dumps(allt, indent=1, ensure_ascii=False))
