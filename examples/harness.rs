//! A harness loop: load an MCP server's tools at run time, declare them to two providers,
//! check the calls a model sends back, and assemble a call streamed by Anthropic.
//!
//! Run it from the repository: `cargo run --example harness`. The model's calls below stand in
//! for what a provider returns; the streamed one is a recording of Anthropic's API.
use std::error::Error;
use std::path::Path;
use tool_schema::{BadTool, Format, Shape, Tools};

fn main() -> Result<(), Box<dyn Error>> {
    // The published filesystem server's tools/list, as a client receives it. A tool that
    // breaks a rule would be left out, with its reason in `refused()`.
    let server = Path::new("tests/catalogs/mcp-servers/server-filesystem.json");
    let tools = Tools::load_path(server, BadTool::IsLeftOut)?;
    println!("{} tools refused", tools.refused().len());

    // What goes in the `tools` of each provider's request: byte for byte the same every time.
    let openai = Shape::new(Format::OpenAi, true).ok_or("OpenAI has a strict mode")?;
    let anthropic = Shape::new(Format::Anthropic, false).ok_or("a shape")?;
    let declared = tools.tool_list(openai)?;
    println!("OpenAI strict: {} bytes of tools", declared.len());
    let declared = tools.tool_list(anthropic)?;
    println!("Anthropic: {} bytes of tools", declared.len());

    // A right call: its arguments in canonical form, ready to run the tool with.
    let call = br#"{"id":"call_1","type":"function",
        "function":{"name":"read_text_file","arguments":"{\"path\":\"notes.md\",\"head\":null}"}}"#;
    let verdict = tools.check_call(openai, call)?;
    println!(
        "{}: ok {}, {}",
        verdict.name,
        verdict.ok(),
        verdict.arguments.unwrap_or_default()
    );

    // A wrong one: the problems, and the reply that lets the model correct itself.
    let call = br#"{"type":"tool_use","id":"toolu_1","name":"read_text_file","input":{"file":"notes.md"}}"#;
    let verdict = tools.check_call(anthropic, call)?;
    for problem in &verdict.problems {
        println!(
            "{}: {} at {:?}: {}",
            verdict.name, problem.code, problem.path, problem.message
        );
    }
    println!("reply: {}", verdict.reply.unwrap_or_default());

    // A streamed response, one event at a time, over the tools of the recording's request.
    let weather = Tools::load_path(Path::new("tests/streams/catalog.json"), BadTool::IsLeftOut)?;
    let mut stream = weather.call_stream(anthropic);
    let events = std::fs::read_to_string("tests/streams/anthropic_get_weather.jsonl")?;
    for event in events.lines() {
        for settled in stream.event(event.as_bytes())? {
            let verdict = settled.verdict;
            let arguments = verdict.arguments.unwrap_or_default();
            println!(
                "streamed call {}: {} {}",
                settled.index, verdict.name, arguments
            );
        }
    }
    stream.end()?;
    Ok(())
}
