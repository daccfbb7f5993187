//! The serde_json program the `check_call` benches time beside check_call: the same work (the
//! request and its envelope, the arguments, a jsonschema validator compiled once, the answer
//! written canonically) as a serde user would write it. Shared by `src/bin/check_call.rs` and
//! `src/bin/calls.rs` (`#[path]`), which time it on different calls.

use serde_json::{json, Value};

/// serde_json's own writer with RFC 8785's numbers: its maps are sorted already (by bytes, which
/// is JCS's order for these ASCII keys) and its string escapes are JCS's, so only floats need
/// ECMAScript's form. The fastest canonical serde program we could write.
pub struct Jcs;

impl serde_json::ser::Formatter for Jcs {
    fn write_f64<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        value: f64,
    ) -> std::io::Result<()> {
        if value == 0.0 {
            return w.write_all(b"0");
        }
        w.write_all(ryu_js::Buffer::new().format(value).as_bytes())
    }
}

/// How the serde side writes its answer.
// `calls.rs` times one of the writers; `check_call.rs` all three.
#[allow(dead_code)]
#[derive(Clone, Copy)]
pub enum Writer {
    SerdeJcs,
    JcsFormatter,
    Plain,
}

/// The serde_json program: `Value` for the request and the arguments, jsonschema to validate,
/// `json!` for the answer, and serde_jcs to write it in RFC 8785 form, as check_call does
/// (serde_json's own writer keeps `5.0` and `1e21` as they are, which JCS does not).
pub fn serde_side(
    validator: &jsonschema::Validator,
    writer: Writer,
    tool: &str,
    request: &[u8],
    out: &mut Vec<u8>,
) {
    let request: Value = serde_json::from_slice(request).unwrap();
    assert_eq!(request["op"], "check_call");
    let call = &request["call"];
    let id = call["id"].as_str().unwrap();
    assert_eq!(call["type"], "function");
    let function = &call["function"];
    let name = function["name"].as_str().unwrap();
    assert_eq!(name, tool);
    let text = function["arguments"].as_str().unwrap();
    let arguments: Value = if text.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(text).unwrap()
    };
    let answer = if validator.is_valid(&arguments) {
        json!({"arguments": arguments, "id": id, "name": name, "ok": true})
    } else {
        let errors: Vec<Value> = validator
            .iter_errors(&arguments)
            .map(|error| {
                json!({
                    "code": "invalid",
                    "message": error.to_string(),
                    "path": error.instance_path().to_string(),
                })
            })
            .collect();
        let text = errors
            .iter()
            .map(|error| error["message"].as_str().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        json!({
            "errors": errors, "id": id, "name": name, "ok": false,
            "reply": {"content": text, "role": "tool", "tool_call_id": id},
        })
    };
    match writer {
        Writer::SerdeJcs => serde_jcs::to_writer(&mut *out, &answer).unwrap(),
        Writer::JcsFormatter => {
            use serde::Serialize;
            let mut serializer = serde_json::Serializer::with_formatter(&mut *out, Jcs);
            answer.serialize(&mut serializer).unwrap();
        }
        Writer::Plain => serde_json::to_writer(&mut *out, &answer).unwrap(),
    }
    out.push(b'\n');
}
