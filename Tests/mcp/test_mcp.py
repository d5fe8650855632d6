"""`lens mcp` with a real MCP client: the `mcp` Python SDK (test tooling only) starts the built
binary over stdio, as an agent would, and checks each tool against the command line's --json."""
import asyncio
import base64
import json
import os
import shutil
import subprocess
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[2]
LENS = Path(os.environ.get("LENS_BINARY", ROOT / ".build/debug/lens"))
SECRET = "Tr0ub4dor-Xyzzy-93"


@pytest.fixture(scope="module")
def library():
    home = Path(tempfile.mkdtemp(prefix="lens-mcp-"))
    inbox = home / "inbox"
    inbox.mkdir()
    for png in (ROOT / "samples").glob("*.png"):
        shutil.copy(png, inbox / png.name)
    image = Image.new("RGB", (900, 200), (255, 255, 255))
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 24)
    ImageDraw.Draw(image).text((30, 30), f"staging db password: {SECRET}", font=font, fill=(20, 20, 20))
    ImageDraw.Draw(image).text((30, 90), "ask Priya Nair before rotating it", font=font, fill=(20, 20, 20))
    image.save(inbox / "secret_note.png")
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), LENS_CONFIG=str(home / "none.toml"))
    db = home / "lens.db"
    subprocess.run([str(LENS), "import", str(inbox), "--db", str(db)], check=True, env=env, stdout=subprocess.DEVNULL)
    yield {"db": db, "env": env, "home": home}
    shutil.rmtree(home, ignore_errors=True)


def cli(library, *args):
    """What the command line prints with --json, parsed."""
    out = subprocess.run([str(LENS), *args, "--db", str(library["db"])], check=True, env=library["env"],
                         capture_output=True, text=True).stdout
    return json.loads(out)


@asynccontextmanager
async def session(library, *flags):
    params = StdioServerParameters(command=str(LENS), args=["mcp", "--db", str(library["db"]), *flags], env=library["env"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            yield client


def run(coroutine):
    return asyncio.run(coroutine)


def text_of(result):
    return "".join(c.text for c in result.content if c.type == "text")


def test_the_tools_say_what_they_take_and_that_they_only_read(library):
    async def body():
        async with session(library) as client:
            read_only = (await client.list_tools()).tools
        async with session(library, "--allow-changes") as client:
            all_tools = (await client.list_tools()).tools
        return read_only, all_tools
    read_only, all_tools = run(body())
    assert sorted(t.name for t in read_only) == ["connections", "get_screenshot", "list_entities", "search_screenshots"]
    for tool in read_only:
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object", tool
        assert tool.annotations.read_only_hint is True, tool
    writes = {t.name: t for t in all_tools if t.name not in {x.name for x in read_only}}
    assert sorted(writes) == ["set_note", "tag_screenshot"]
    assert all(t.annotations.read_only_hint is False for t in writes.values())
    assert writes["set_note"].input_schema["required"] == ["id", "note"]


def test_each_tool_answers_what_the_command_line_prints(library):
    async def body():
        async with session(library) as client:
            found = await client.call_tool("search_screenshots", {"query": "priya"})
            phones = await client.call_tool("search_screenshots", {"type": "phone", "limit": 5})
            shot_id = found.structured_content["results"][0]["id"]
            shot = await client.call_tool("get_screenshot", {"id": shot_id})
            entities = await client.call_tool("list_entities", {"type": "person", "limit": 10})
            around = await client.call_tool("connections", {"id": shot_id, "depth": 2})
            return found, phones, shot_id, shot, entities, around
    found, phones, shot_id, shot, entities, around = run(body())
    expected = cli(library, "search", "priya", "--json")
    assert len(expected) >= 2
    assert json.loads(text_of(found)) == expected and found.structured_content == {"results": expected}
    assert phones.structured_content == {"results": cli(library, "search", "--type", "phone", "--limit", "5", "--json")}
    assert shot.structured_content == cli(library, "show", str(shot_id), "--json")
    assert "Priya" in shot.structured_content["text"]
    images = [c for c in shot.content if c.type == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/jpeg"
    assert base64.b64decode(images[0].data)[:3] == b"\xff\xd8\xff"  # a JPEG
    assert entities.structured_content == {"entities": cli(library, "entities", "--type", "person", "--top", "10", "--json")}
    graph = cli(library, "graph", "--around", str(shot_id), "--depth", "2", "--format", "json")
    assert around.structured_content == graph and len(graph["edges"]) >= 1


def test_recent_screenshots_are_resources(library):
    async def body():
        async with session(library) as client:
            listed = (await client.list_resources()).resources
            templates = (await client.list_resource_templates()).resource_templates
            first = await client.read_resource(str(listed[0].uri))
            return listed, templates, first
    listed, templates, first = run(body())
    newest = cli(library, "search", "--since", "1970-01-01", "--limit", "100", "--json")
    assert [str(r.uri) for r in listed] == [f"lens://screenshots/{hit['id']}" for hit in newest]
    assert templates[0].uri_template == "lens://screenshots/{id}"
    shown = cli(library, "show", str(listed[0].uri).rsplit("/", 1)[1], "--json")
    assert json.loads(first.contents[0].text) == shown


def test_secrets_stay_masked_in_every_answer(library):
    async def body():
        async with session(library, "--allow-changes") as client:
            found = await client.call_tool("search_screenshots", {"query": "staging password"})
            shot_id = found.structured_content["results"][0]["id"]
            shot = await client.call_tool("get_screenshot", {"id": shot_id, "thumbnail": False})
            noted = await client.call_tool("set_note", {"id": shot_id, "note": f"the new password is {SECRET}"})
            resource = await client.read_resource(f"lens://screenshots/{shot_id}")
            return found, shot, noted, resource, shot_id
    found, shot, noted, resource, shot_id = run(body())
    answers = [text_of(found), text_of(shot), text_of(noted), resource.contents[0].text,
               json.dumps(found.structured_content), json.dumps(shot.structured_content), json.dumps(noted.structured_content)]
    for answer in answers:
        assert SECRET[:8] not in answer and SECRET[-8:] not in answer, answer
    assert any(e["type"] == "secret" for e in shot.structured_content["entities"])
    assert noted.structured_content["masked"] == ["password"] and "[password" in noted.structured_content["note"], noted.structured_content
    assert SECRET[-8:] not in json.dumps(cli(library, "show", str(shot_id), "--json"))


def test_changes_need_the_flag_and_then_show_on_the_command_line(library):
    async def body():
        async with session(library) as client:
            with pytest.raises(MCPError, match="--allow-changes"):
                await client.call_tool("tag_screenshot", {"id": 1, "add": ["agent-picked"]})
        async with session(library, "--allow-changes") as client:
            tagged = await client.call_tool("tag_screenshot", {"id": 1, "add": ["agent-picked"]})
            with pytest.raises(MCPError, match="is not a tag"):
                await client.call_tool("tag_screenshot", {"id": 1, "add": ["two words"]})
            return tagged
    tagged = run(body())
    assert "agent-picked" in tagged.structured_content["tags"]
    assert [hit["id"] for hit in cli(library, "search", "--tag", "agent-picked", "--json")] == [1]


@pytest.mark.parametrize("tool,arguments,message", [
    ("no_such_tool", {}, "there is no tool 'no_such_tool'"),
    ("get_screenshot", {}, "needs the screenshot's id"),
    ("get_screenshot", {"id": "abc"}, "id must be an integer"),
    ("get_screenshot", {"id": 99999}, "no screenshot with id 99999"),
    ("search_screenshots", {"query": "x", "limit": 0}, "limit must be between 1 and 100"),
    ("search_screenshots", {"query": "x", "limt": 5}, "has no argument 'limt'"),
    ("search_screenshots", {"query": "x" * 20000}, "longer than"),
    ("search_screenshots", {"query": "x", "since": "next tuesday-ish"}, ""),
    ("search_screenshots", {"query": "x", "type": "shoe"}, "Unknown entity type 'shoe'"),
    ("search_screenshots", {}, "needs a query or a filter"),
    ("connections", {"id": 1, "depth": 99}, "depth must be between 1 and 6"),
])
def test_a_malformed_call_gets_an_error_and_the_server_keeps_serving(library, tool, arguments, message):
    async def body():
        async with session(library) as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool(tool, arguments)
            after = await client.call_tool("search_screenshots", {"query": "priya"})
            return raised.value, after
    error, after = run(body())
    assert message in str(error), str(error)
    assert len(after.structured_content["results"]) >= 2


def test_garbage_on_the_wire_is_answered_and_stdout_carries_only_protocol_messages(library):
    """Raw JSON-RPC lines, as a broken client might send them, and input closed at once: each
    gets an answer before Lens exits, the server goes on after each error, and every line it
    writes is a JSON-RPC message."""
    lines = [
        "this is not json",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}),
        '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "' + "x" * (5 << 20) + '"}}',  # past the 4 MiB bound
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_screenshot", "arguments": {"id": [1, 2]}}}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "search_screenshots", "arguments": {"query": "priya"}}}),
    ]
    done = subprocess.run([str(LENS), "mcp", "--db", str(library["db"]), "--log-level", "debug"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=library["env"], timeout=60)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert all(a.get("jsonrpc") == "2.0" for a in answers), done.stdout
    by_id = {a.get("id"): a for a in answers}
    assert any(a.get("error", {}).get("code") == -32700 for a in answers), answers  # the line that is not JSON
    assert by_id[2]["error"]["code"] == -32601
    assert 9 not in by_id and any(a.get("id") is None and "longer than" in a["error"]["message"] for a in answers)
    assert by_id[3]["error"]["code"] == -32602 and "id must be an integer" in by_id[3]["error"]["message"]
    assert len(by_id[4]["result"]["structuredContent"]["results"]) >= 2
    # The log (standard error) names tools and times, never the library's text.
    assert "Priya" not in done.stderr and "tool answered" in done.stderr
