//! Every parameter schema this build declares, in every shape, is valid JSON Schema 2020-12
//! (checked against the draft's meta-schema by the `jsonschema` crate), or, in the mcp shape
//! where the catalog names another dialect with `$schema` (the MCP TypeScript SDK writes
//! draft-07), valid in that dialect. Build it over a catalog:
//!
//! ```sh
//! TOOL_SCHEMA_CATALOG=$PWD/../../tests/catalogs/pydantic/catalog.json cargo run --bin metaschema
//! ```
//!
//! Prints how many schemas it checked, and exits 1 naming the first that is not valid. A tool
//! that a shape cannot express (`unsupported`) has no schema there, and is counted apart.

use serde_json::Value;
use tool_schema::{respond, Format, Shape};

fn main() {
    let (mut checked, mut unsupported) = (0, 0);
    for format in Format::ALL {
        for strict in [false, true] {
            let Some(shape) = Shape::new(format, strict) else {
                continue;
            };
            for name in tool_schema::catalog::NAMES {
                let request = format!(
                    r#"{{"op":"tool_schema","tool":"{name}","format":"{}","strict":{strict}}}"#,
                    format.name()
                );
                let mut out = Vec::new();
                if respond(request.as_bytes(), &mut out).is_err() {
                    unsupported += 1;
                    continue;
                }
                let declaration: Value = serde_json::from_slice(&out).expect("JSON");
                let schemas = [
                    &declaration["function"]["parameters"],
                    &declaration["parameters"],
                    &declaration["parametersJsonSchema"],
                    &declaration["input_schema"],
                    &declaration["inputSchema"],
                    &declaration["outputSchema"],
                ];
                for schema in schemas.into_iter().filter(|schema| !schema.is_null()) {
                    // A schema that names its dialect (`$schema`, which only the mcp shape writes
                    // back) is held to that dialect's meta-schema; every other one to 2020-12's.
                    let verdict = if schema.get("$schema").is_some() {
                        jsonschema::meta::validate(schema)
                    } else {
                        jsonschema::draft202012::meta::validate(schema)
                    };
                    if let Err(err) = verdict {
                        eprintln!("{name} in {shape:?}: not a valid schema of its dialect: {err}");
                        std::process::exit(1);
                    }
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} schemas valid against their meta-schema; {unsupported} unsupported");
}
