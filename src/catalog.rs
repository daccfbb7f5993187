//! The tools this program declares, as static data.
//!
//! Adding a tool is one entry in [`TOOLS`]. The `const` block at the bottom checks every entry when
//! the crate is compiled, so an entry that some provider would reject, or that the writer would
//! emit with keys out of order, does not build.

/// A tool: what the model sees of it.
#[derive(Debug)]
pub struct Tool {
    /// `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`: OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`,
    /// starting with a letter or underscore as Gemini also asks.
    pub name: &'static str,
    /// At most [`MAX_DESCRIPTION`] bytes.
    pub description: &'static str,
    /// Sorted by name, byte order: the order they are written in.
    pub properties: &'static [Property],
    /// Sorted by name, byte order; each one names a property.
    pub required: &'static [&'static str],
    /// What the tool does to its environment, for MCP's annotations.
    pub hints: Hints,
}

/// MCP's behaviour hints (`ToolAnnotations` in the MCP schema). Always written out in full.
#[derive(Debug)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// One parameter of a tool.
#[derive(Debug)]
pub struct Property {
    /// `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`, a name every provider accepts as a property key.
    pub name: &'static str,
    pub ty: Type,
    pub description: &'static str,
}

/// The JSON Schema types a property can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    String,
    Integer,
}

impl Type {
    /// The JSON Schema spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Type::String => "string",
            Type::Integer => "integer",
        }
    }
}

/// The longest description accepted, in bytes.
pub const MAX_DESCRIPTION: usize = 1024;

/// Every tool, in the order `tool_list` writes them.
pub static TOOLS: [Tool; 3] = [
    Tool {
        name: "read_file",
        description: "Lee el contenido de un archivo con numeración de líneas y soporte de rangos.",
        properties: &[
            Property {
                name: "end_line",
                ty: Type::Integer,
                description: "Línea final inclusiva (1-indexada)",
            },
            Property {
                name: "path",
                ty: Type::String,
                description: "Ruta relativa del archivo",
            },
            Property {
                name: "start_line",
                ty: Type::Integer,
                description: "Línea inicial inclusiva (1-indexada)",
            },
        ],
        required: &["path"],
        hints: Hints {
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
    },
    Tool {
        name: "write_file",
        description: "Crea o sobreescribe un archivo en el espacio de trabajo.",
        properties: &[
            Property {
                name: "content",
                ty: Type::String,
                description: "Contenido completo a escribir en el archivo",
            },
            Property {
                name: "path",
                ty: Type::String,
                description: "Ruta relativa del archivo a crear o sobreescribir",
            },
        ],
        required: &["content", "path"],
        hints: Hints {
            read_only: false,
            destructive: true,
            idempotent: true,
            open_world: false,
        },
    },
    Tool {
        name: "patch_file",
        description: "Aplica una edición quirúrgica sustituyendo una ocurrencia única de texto.",
        properties: &[
            Property {
                name: "new_str",
                ty: Type::String,
                description: "Nuevo texto de reemplazo",
            },
            Property {
                name: "old_str",
                ty: Type::String,
                description: "Texto exacto a buscar y reemplazar (debe ser único)",
            },
            Property {
                name: "path",
                ty: Type::String,
                description: "Ruta relativa del archivo a editar",
            },
        ],
        required: &["new_str", "old_str", "path"],
        hints: Hints {
            read_only: false,
            destructive: true,
            idempotent: false,
            open_world: false,
        },
    },
];

/// Every tool's name, in catalog order.
pub(crate) const NAMES: [&str; TOOLS.len()] = {
    let mut names = [""; TOOLS.len()];
    let mut i = 0;
    while i < TOOLS.len() {
        names[i] = TOOLS[i].name;
        i += 1;
    }
    names
};

/// The index in [`TOOLS`] of the tool with this name, if the request's literal decodes to one.
#[inline]
pub(crate) fn find(literal: &[u8]) -> Option<usize> {
    TOOLS
        .iter()
        .position(|tool| crate::tokenizer::string_eq(literal, tool.name))
}

/// Whether `name` is in the tool's `required` list.
pub(crate) const fn is_required(tool: &Tool, name: &str) -> bool {
    let mut r = 0;
    while r < tool.required.len() {
        if eq(tool.required[r].as_bytes(), name.as_bytes()) {
            return true;
        }
        r += 1;
    }
    false
}

/// The names, for error messages: `read_file, write_file, patch_file`.
pub(crate) struct Names;

impl std::fmt::Display for Names {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, tool) in TOOLS.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(tool.name)?;
        }
        Ok(())
    }
}

const _: () = check(&TOOLS);

/// Fails the build when the catalog breaks a rule. `pub` so that `compile_fail` doctests can show
/// each rule biting:
///
/// ```compile_fail,E0080
/// use tool_schema::catalog::{check, Hints, Property, Tool, Type};
/// const H: Hints = Hints { read_only: true, destructive: false, idempotent: true, open_world: false };
/// const BAD: [Tool; 1] = [Tool {
///     name: "read file", // a space is not allowed in a tool name
///     description: "",
///     properties: &[],
///     required: &[],
///     hints: H,
/// }];
/// const _: () = check(&BAD);
/// ```
///
/// ```compile_fail,E0080
/// use tool_schema::catalog::{check, Hints, Property, Tool, Type};
/// const H: Hints = Hints { read_only: true, destructive: false, idempotent: true, open_world: false };
/// const P: Property = Property { name: "b", ty: Type::String, description: "" };
/// const Q: Property = Property { name: "a", ty: Type::String, description: "" };
/// const BAD: [Tool; 1] = [Tool {
///     name: "t",
///     description: "",
///     properties: &[P, Q], // "b" before "a": the writer would emit unsorted keys
///     required: &[],
///     hints: H,
/// }];
/// const _: () = check(&BAD);
/// ```
///
/// ```compile_fail,E0080
/// use tool_schema::catalog::{check, Hints, Property, Tool, Type};
/// const H: Hints = Hints { read_only: true, destructive: false, idempotent: true, open_world: false };
/// const P: Property = Property { name: "a", ty: Type::String, description: "" };
/// const BAD: [Tool; 1] = [Tool {
///     name: "t",
///     description: "",
///     properties: &[P],
///     required: &["b"], // not a property
///     hints: H,
/// }];
/// const _: () = check(&BAD);
/// ```
///
/// ```compile_fail,E0080
/// use tool_schema::catalog::{check, Hints, Tool};
/// const H: Hints = Hints { read_only: true, destructive: false, idempotent: true, open_world: false };
/// const LONG: &str = match std::str::from_utf8(&[b'x'; 1025]) { Ok(s) => s, Err(_) => "" };
/// const BAD: [Tool; 1] = [Tool { name: "t", description: LONG, properties: &[], required: &[], hints: H }];
/// const _: () = check(&BAD);
/// ```
///
/// ```compile_fail,E0080
/// use tool_schema::catalog::{check, Hints, Tool};
/// const H: Hints = Hints { read_only: true, destructive: false, idempotent: true, open_world: false };
/// const T: Tool = Tool { name: "t", description: "", properties: &[], required: &[], hints: H };
/// const BAD: [Tool; 2] = [T, T]; // the same name twice
/// const _: () = check(&BAD);
/// ```
///
/// And the catalog as it is passes:
///
/// ```
/// const _: () = tool_schema::catalog::check(&tool_schema::catalog::TOOLS);
/// ```
pub const fn check(tools: &[Tool]) {
    let mut t = 0;
    while t < tools.len() {
        let tool = &tools[t];
        assert!(
            is_tool_name(tool.name.as_bytes()),
            "tool name must match ^[a-zA-Z_][a-zA-Z0-9_-]{{0,63}}$"
        );
        assert!(
            tool.description.len() <= MAX_DESCRIPTION,
            "tool description over 1024 bytes"
        );
        assert!(
            !(tool.hints.read_only && tool.hints.destructive),
            "a read-only tool cannot be destructive (MCP ToolAnnotations)"
        );
        let mut u = 0;
        while u < t {
            assert!(
                !eq(tools[u].name.as_bytes(), tool.name.as_bytes()),
                "tool name used twice"
            );
            u += 1;
        }
        let properties = tool.properties;
        let mut p = 0;
        while p < properties.len() {
            let name = properties[p].name.as_bytes();
            assert!(
                is_property_name(name),
                "property name must match ^[a-zA-Z_][a-zA-Z0-9_]{{0,63}}$"
            );
            assert!(
                properties[p].description.len() <= MAX_DESCRIPTION,
                "property description over 1024 bytes"
            );
            assert!(
                p == 0 || less(properties[p - 1].name.as_bytes(), name),
                "properties must be sorted by name, each once"
            );
            p += 1;
        }
        let required = tool.required;
        let mut r = 0;
        while r < required.len() {
            let name = required[r].as_bytes();
            assert!(
                r == 0 || less(required[r - 1].as_bytes(), name),
                "required must be sorted, each once"
            );
            let mut found = false;
            let mut p = 0;
            while p < properties.len() {
                found |= eq(properties[p].name.as_bytes(), name);
                p += 1;
            }
            assert!(found, "every required name must be a property");
            r += 1;
        }
        t += 1;
    }
}

const fn is_tool_name(name: &[u8]) -> bool {
    let mut i = 0;
    while i < name.len() {
        let ok = match name[i] {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => true,
            b'0'..=b'9' | b'-' => i > 0,
            _ => false,
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    !name.is_empty() && name.len() <= 64
}

const fn is_property_name(name: &[u8]) -> bool {
    let mut i = 0;
    while i < name.len() {
        let ok = match name[i] {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => true,
            b'0'..=b'9' => i > 0,
            _ => false,
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    !name.is_empty() && name.len() <= 64
}

/// Byte-order `a < b`, as `<[u8]>::cmp` is not yet `const`.
const fn less(a: &[u8], b: &[u8]) -> bool {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    !less(a, b) && !less(b, a)
}
