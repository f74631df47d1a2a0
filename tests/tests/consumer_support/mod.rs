//! Runs generated TypeScript and Python modules in real `node` and
//! `python3` processes, many documents per process, and compares every
//! result with the engine: the same value (and the same canonical
//! re-encoding), or the same code, rule, JSON Pointer and message.
#![allow(dead_code)]

use serde_json::{json, Value as Json};
use spx_gen::names::{self, Language, Names};
use spx_schema::graph::{FieldType, Repr, TypeKind};
use spx_schema::{Diagnostic, Location, Schema, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The tools the consumer tests run. Missing ones fail the test with what
/// to install, never a silent skip.
pub struct Tools {
    pub node: String,
    pub tsc: PathBuf,
    pub python: String,
}

fn runs(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

impl Tools {
    /// Finds `node`, the pinned `tsc` and `python3` with `mypy`, or panics
    /// naming what is missing and how to install it (docs/CONSUMERS.md).
    pub fn find() -> Tools {
        let node = std::env::var("SPX_NODE").unwrap_or_else(|_| "node".to_owned());
        let python = std::env::var("SPX_PYTHON").unwrap_or_else(|_| "python3".to_owned());
        let tsc = std::env::var_os("SPX_TSC")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("consumers/node_modules/typescript/bin/tsc")
            });
        let mut missing = Vec::new();
        if !runs(&node, &["--version"]) {
            missing.push(format!(
                "`{node}` (Node.js 18 or later) is not on PATH: install Node.js, or set SPX_NODE"
            ));
        }
        if !tsc.is_file() {
            missing.push(format!(
                "the TypeScript compiler is not at {}: run `npm ci --prefix tests/consumers` (or set SPX_TSC)",
                tsc.display()
            ));
        }
        if !runs(&python, &["--version"]) {
            missing.push(format!(
                "`{python}` (Python 3.9 or later) is not on PATH: install it, or set SPX_PYTHON"
            ));
        } else if !runs(&python, &["-m", "mypy", "--version"]) {
            missing.push(format!(
                "mypy is not installed for `{python}`: run `{python} -m pip install -r tests/consumers/requirements.txt`"
            ));
        }
        assert!(
            missing.is_empty(),
            "the consumer tests cannot run:\n  - {}\n(see docs/CONSUMERS.md, \"Tests\")",
            missing.join("\n  - ")
        );
        Tools { node, tsc, python }
    }
}

/// `schema` with every empty display name filled in (`T0`, `C0`, `f0` by
/// position): a hand-built or random graph has none, and the generators
/// need them. Names are not part of the schema document: the digest stays.
pub fn named(schema: &Schema) -> Schema {
    let mut g = schema.graph().clone();
    for (i, t) in g.types.iter_mut().enumerate() {
        if t.name.is_empty() {
            t.name = format!("T{i}");
        }
        let fill = |fields: &mut Vec<spx_schema::Field>| {
            for (j, f) in fields.iter_mut().enumerate() {
                if f.name.is_empty() {
                    f.name = format!("f{j}");
                }
            }
        };
        match &mut t.kind {
            TypeKind::Record { fields } => fill(fields),
            TypeKind::Variant { cases } => {
                for (j, c) in cases.iter_mut().enumerate() {
                    if c.name.is_empty() {
                        c.name = format!("C{j}");
                    }
                    fill(&mut c.fields);
                }
            }
        }
    }
    let s = Schema::from_graph(g).expect("a renamed graph renders");
    assert_eq!(s.digest(), schema.digest());
    s
}

/// One generated module: its roots (named), and its names per language.
pub struct Module {
    pub schemas: Vec<Schema>,
    pub ts: String,
    pub py: String,
    ts_names: Names,
    py_names: Names,
}

impl Module {
    pub fn new(schemas: Vec<Schema>) -> Module {
        let ts = spx_gen::typescript::generate(&schemas).expect("TypeScript names");
        let py = spx_gen::python::generate(&schemas).expect("Python names");
        Module {
            ts_names: names::plan(&schemas, Language::TypeScript).expect("names"),
            py_names: names::plan(&schemas, Language::Python).expect("names"),
            schemas,
            ts,
            py,
        }
    }

    /// The root's namespace in a module of several roots, else None.
    fn namespace(&self, lang: Language, root: usize) -> Option<String> {
        if self.schemas.len() < 2 {
            return None;
        }
        let names = match lang {
            Language::TypeScript => &self.ts_names,
            Language::Python => &self.py_names,
        };
        Some(names.types[self.schemas[root].root_type_id()].name.clone())
    }

    /// The language's view of an engine value of `schema`'s type `t`, as
    /// the drivers print it: integers `{"int": "…"}`, bytes
    /// `{"bytes": […]}`, records and cases objects of their fields by name
    /// (TypeScript cases with their `case` tag, Python objects with their
    /// `$class`).
    pub fn view(&self, lang: Language, schema: &Schema, t: usize, v: &Value) -> Json {
        let names = match lang {
            Language::TypeScript => &self.ts_names,
            Language::Python => &self.py_names,
        };
        let node = &schema.graph().types[t];
        let tn = &names.types[&node.stable_id];
        let (fields, fnames, mut obj) = match (&node.kind, v) {
            (TypeKind::Record { fields }, Value::Record(vals)) => {
                let mut o = serde_json::Map::new();
                if lang == Language::Python {
                    o.insert("$class".into(), json!(tn.name));
                }
                (fields, &tn.fields, (o, vals))
            }
            (TypeKind::Variant { cases }, Value::Variant { case, fields: vals }) => {
                let Some(j) = cases.iter().position(|c| c.stable_id == *case) else {
                    return json!({ "case": "?" });
                };
                let cn = &tn.cases[j];
                let mut o = serde_json::Map::new();
                match lang {
                    Language::TypeScript => o.insert("case".into(), json!(cn.tag)),
                    Language::Python => o.insert("$class".into(), json!(cn.class)),
                };
                (&cases[j].fields, &cn.fields, (o, vals))
            }
            (_, other) => return self.leaf(other),
        };
        let (ref mut o, vals) = obj;
        for (f, name) in fields.iter().zip(fnames) {
            if let Some((_, x)) = vals.iter().find(|(id, _)| *id == f.stable_id) {
                let j = match f.ty {
                    FieldType::Nested(i) => self.view(lang, schema, i, x),
                    FieldType::Scalar(_) => self.leaf(x),
                };
                o.insert(name.clone(), j);
            }
        }
        Json::Object(std::mem::take(o))
    }

    fn leaf(&self, v: &Value) -> Json {
        match v {
            Value::Bool(b) => json!(b),
            Value::I64(n) => json!({ "int": n.to_string() }),
            Value::U64(n) => json!({ "int": n.to_string() }),
            Value::String(s) => json!(s),
            Value::Bytes(b) => json!({ "bytes": b }),
            Value::Record(_) | Value::Variant { .. } => json!(null),
        }
    }
}

/// A document to decode with one root of one module, or a value to encode.
pub struct Job {
    pub module: usize,
    pub root: usize,
    pub kind: JobKind,
}

pub enum JobKind {
    Decode(Vec<u8>),
    /// An engine value (possibly out of its bounds) to encode.
    Encode(Value),
}

const TS_DRIVER: &str = r#"
import * as fs from "fs";
const [, , jobsFile, outFile] = process.argv;
const jobs = fs.readFileSync(jobsFile, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const mods = {};
for (const j of jobs) if (!(j.m in mods)) mods[j.m] = await import("./js/m" + j.m + ".js");
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
function view(v) {
  if (typeof v === "bigint") return { int: v.toString() };
  if (v instanceof Uint8Array) return { bytes: Array.from(v) };
  if (typeof v === "object" && v !== null) {
    const o = {};
    for (const k of Object.keys(v)) o[k] = view(v[k]);
    return o;
  }
  return v;
}
function build(x) {
  if (Array.isArray(x)) return x.map(build);
  if (typeof x === "object" && x !== null) {
    const keys = Object.keys(x);
    if (keys.length === 1 && keys[0] === "int") return BigInt(x.int);
    if (keys.length === 1 && keys[0] === "bytes") return Uint8Array.from(x.bytes);
    const o = {};
    for (const k of keys) o[k] = build(x[k]);
    return o;
  }
  return x;
}
function attempt(mod, f) {
  try {
    return { ok: f() };
  } catch (e) {
    if (e instanceof mod.SpxError) return { err: [e.code, e.rule, e.pointer, e.message] };
    return { crash: String(e && e.stack ? e.stack : e) };
  }
}
const out = [];
for (const j of jobs) {
  const mod = mods[j.m];
  const api = j.ns === null ? mod : mod[j.ns];
  let res;
  if (j.doc !== undefined) {
    const bytes = new Uint8Array(Buffer.from(j.doc, "hex"));
    const r = attempt(mod, () => api.decode(bytes));
    if (r.ok !== undefined) {
      const enc = attempt(mod, () => api.encode(r.ok));
      const again = enc.ok !== undefined ? attempt(mod, () => api.decode(enc.ok)) : enc;
      res = { ok: view(r.ok), enc: enc.ok === undefined ? enc : enc.ok, rt: JSON.stringify(view(again.ok)) === JSON.stringify(view(r.ok)) };
    } else res = r;
    let text = null;
    try { text = utf8.decode(bytes); } catch {}
    if (text !== null) {
      const s = attempt(mod, () => api.decode(text));
      res.str = JSON.stringify(s.ok !== undefined ? view(s.ok) : s) === JSON.stringify(r.ok !== undefined ? view(r.ok) : r);
    }
  } else {
    const r = attempt(mod, () => api.encode(build(j.value)));
    res = r.ok !== undefined ? { enc: r.ok } : r;
  }
  out.push(JSON.stringify(res));
}
fs.writeFileSync(outFile, out.join("\n") + "\n");
"#;

const PY_DRIVER: &str = r#"
import dataclasses, importlib, json, sys
jobs_file, out_file = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
mods = {}
def view(v):
    if isinstance(v, bool) or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, bytes):
        return {"bytes": list(v)}
    if dataclasses.is_dataclass(v):
        d = {"$class": type(v).__name__}
        for f in dataclasses.fields(v):
            d[f.name] = view(getattr(v, f.name))
        return d
    return {"unexpected": repr(v)}
def build(mod, x):
    if isinstance(x, dict):
        if list(x) == ["int"]:
            return int(x["int"])
        if list(x) == ["bytes"]:
            return bytes(x["bytes"])
        cls = getattr(mod, x["$class"])
        return cls(**{k: build(mod, v) for k, v in x.items() if k != "$class"})
    return x
def attempt(mod, f):
    try:
        return {"ok": f()}
    except mod.SpxError as e:
        return {"err": [e.code, e.rule, e.pointer, e.message]}
    except Exception as e:
        import traceback
        return {"crash": traceback.format_exc()}
out = []
for line in open(jobs_file, encoding="utf-8"):
    j = json.loads(line)
    m = j["m"]
    if m not in mods:
        mods[m] = importlib.import_module("m%d" % m)
    mod = mods[m]
    api = mod if j["ns"] is None else getattr(mod, j["ns"])
    if "doc" in j:
        data = bytes.fromhex(j["doc"])
        r = attempt(mod, lambda: api.decode(data))
        if "ok" in r:
            enc = attempt(mod, lambda: api.encode(r["ok"]))
            again = attempt(mod, lambda: api.decode(enc["ok"])) if "ok" in enc else enc
            res = {"ok": view(r["ok"]), "enc": enc.get("ok", enc), "rt": again.get("ok") == r["ok"]}
        else:
            res = r
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            s = attempt(mod, lambda: api.decode(text))
            res["str"] = (view(s["ok"]) if "ok" in s else s) == (view(r["ok"]) if "ok" in r else r)
    else:
        try:
            value = build(mod, j["value"])
        except TypeError:
            out.append(json.dumps({"unbuildable": True}))
            continue
        r = attempt(mod, lambda: api.encode(value))
        res = {"enc": r["ok"]} if "ok" in r else r
    out.append(json.dumps(res))
with open(out_file, "w", encoding="utf-8") as f:
    f.write("\n".join(out) + "\n")
"#;

/// A scratch directory under the test target's temporary directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("consumers")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

/// Writes the modules, type-checks them (`tsc --strict`, `mypy --strict`),
/// compiles the TypeScript, runs every job in one `node` and one `python3`
/// process, and checks each result against the engine. Returns how many
/// jobs each language ran.
pub fn check_all(tools: &Tools, name: &str, modules: &[Module], jobs: &[Job]) -> usize {
    let dir = scratch(name);
    let mut ts_files = Vec::new();
    let mut py_files = Vec::new();
    for (k, m) in modules.iter().enumerate() {
        let ts = dir.join(format!("m{k}.ts"));
        std::fs::write(&ts, &m.ts).unwrap();
        ts_files.push(ts);
        let py = dir.join(format!("m{k}.py"));
        std::fs::write(&py, &m.py).unwrap();
        py_files.push(py);
    }
    std::fs::write(dir.join("package.json"), "{\"type\":\"module\"}\n").unwrap();
    run(
        Command::new(&tools.node)
            .arg(&tools.tsc)
            .args([
                "--strict",
                // The flags of strict projects the generated file lands in.
                "--noUncheckedIndexedAccess",
                "--noPropertyAccessFromIndexSignature",
                "--exactOptionalPropertyTypes",
                "--isolatedModules",
                "--erasableSyntaxOnly",
                "--noUnusedLocals",
                "--noUnusedParameters",
                "--noImplicitReturns",
                "--noImplicitOverride",
                "--noFallthroughCasesInSwitch",
                "--noEmitOnError",
                "--target",
                "es2020",
                "--module",
                "es2020",
                "--outDir",
            ])
            .arg(dir.join("js"))
            .args(&ts_files),
        "tsc --strict",
    );
    std::fs::write(dir.join("js/package.json"), "{\"type\":\"module\"}\n").unwrap();
    run(
        Command::new(&tools.python)
            .args([
                "-m",
                "mypy",
                "--strict",
                "--python-version",
                "3.9",
                "--cache-dir",
            ])
            .arg(dir.join(".mypy_cache"))
            .args(&py_files),
        "mypy --strict",
    );
    for lang in [Language::TypeScript, Language::Python] {
        let mut lines = String::new();
        for j in jobs {
            let m = &modules[j.module];
            let mut o = serde_json::Map::new();
            o.insert("m".into(), json!(j.module));
            o.insert("ns".into(), json!(m.namespace(lang, j.root)));
            match &j.kind {
                JobKind::Decode(bytes) => {
                    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                    o.insert("doc".into(), json!(hex));
                }
                JobKind::Encode(v) => {
                    let s = &m.schemas[j.root];
                    o.insert("value".into(), m.view(lang, s, s.graph().root_index(), v));
                }
            }
            lines.push_str(&Json::Object(o).to_string());
            lines.push('\n');
        }
        let (tag, jobs_file, out_file) = match lang {
            Language::TypeScript => ("ts", dir.join("ts.jobs"), dir.join("ts.out")),
            Language::Python => ("py", dir.join("py.jobs"), dir.join("py.out")),
        };
        std::fs::write(&jobs_file, lines).unwrap();
        match lang {
            Language::TypeScript => {
                let driver = dir.join("driver.mjs");
                std::fs::write(&driver, TS_DRIVER).unwrap();
                run(
                    Command::new(&tools.node)
                        .arg(&driver)
                        .arg(&jobs_file)
                        .arg(&out_file),
                    "node driver",
                );
            }
            Language::Python => {
                let driver = dir.join("driver.py");
                std::fs::write(&driver, PY_DRIVER).unwrap();
                run(
                    Command::new(&tools.python)
                        .arg(&driver)
                        .arg(&jobs_file)
                        .arg(&out_file)
                        .arg(&dir),
                    "python3 driver",
                );
            }
        }
        let results = std::fs::read_to_string(&out_file).unwrap();
        let results: Vec<Json> = results
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(results.len(), jobs.len(), "{tag}: one result per job");
        let mut failures = Vec::new();
        for (j, r) in jobs.iter().zip(&results) {
            if let Err(e) = compare(lang, &modules[j.module], j, r) {
                failures.push(e);
            }
        }
        assert!(
            failures.is_empty(),
            "{tag}: {} of {} jobs disagree with the engine (scratch: {}):\n{}",
            failures.len(),
            jobs.len(),
            dir.display(),
            failures
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n\n")
        );
    }
    jobs.len()
}

fn pointer(d: &Diagnostic) -> &str {
    match &d.location {
        Location::Pointer(p) => p,
        _ => "?",
    }
}

fn error_json(d: &Diagnostic) -> Json {
    json!([d.code.as_str(), d.rule, pointer(d), d.message])
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(240)]).into_owned()
}

/// One job's result against the engine's.
fn compare(lang: Language, m: &Module, j: &Job, r: &Json) -> Result<(), String> {
    let s = &m.schemas[j.root];
    match &j.kind {
        JobKind::Decode(bytes) => {
            let engine = spx_schema::decode::decode(s, bytes);
            if r.get("str") == Some(&json!(false)) {
                return Err(format!(
                    "decoding the text gave another result than the bytes: {}",
                    show(bytes)
                ));
            }
            match engine {
                Ok(d) => {
                    let want = m.view(lang, s, s.graph().root_index(), &d.value);
                    if r.get("ok") != Some(&want) {
                        return Err(format!(
                            "engine admitted {:?}\nwant {want}\ngot  {r}\ndoc  {}",
                            d.value,
                            show(bytes)
                        ));
                    }
                    if r.get("enc") != Some(&json!(d.canonical)) {
                        return Err(format!("encode differs: {r}\ndoc {}", show(bytes)));
                    }
                    if r.get("rt") != Some(&json!(true)) {
                        return Err(format!("decode(encode(v)) != v: {}", show(bytes)));
                    }
                }
                Err(d) => {
                    if r.get("err") != Some(&error_json(&d)) {
                        return Err(format!(
                            "engine refused {} {} {:?}\ngot {r}\ndoc {}",
                            d.code,
                            d.rule,
                            pointer(&d),
                            show(bytes)
                        ));
                    }
                }
            }
        }
        JobKind::Encode(v) => {
            if r.get("unbuildable").is_some() {
                return Ok(());
            }
            match spx_schema::encode::encode(s, v) {
                Ok(doc) => {
                    if r.get("enc") != Some(&json!(doc)) {
                        return Err(format!("encode of {v:?}: engine {doc:?}, got {r}"));
                    }
                }
                Err(d) => {
                    if r.get("err") != Some(&error_json(&d)) {
                        return Err(format!(
                            "encode of {v:?}: engine refused {} {} {:?}, got {r}",
                            d.code,
                            d.rule,
                            pointer(&d)
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Groups recorded documents by schema: one module per distinct schema.
pub fn modules_of(docs: Vec<(Schema, Vec<u8>)>) -> (Vec<Module>, Vec<Job>) {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut schemas: Vec<Schema> = Vec::new();
    let mut jobs = Vec::new();
    for (s, bytes) in docs {
        let k = *index.entry(s.digest().to_owned()).or_insert_with(|| {
            schemas.push(named(&s));
            schemas.len() - 1
        });
        jobs.push(Job {
            module: k,
            root: 0,
            kind: JobKind::Decode(bytes),
        });
    }
    let modules = schemas.into_iter().map(|s| Module::new(vec![s])).collect();
    (modules, jobs)
}

/// A value like `v` with one leaf (chosen by `pick`) replaced by a value
/// out of its representation: an integer past its bound, a string or
/// bytes over 4096, or a leaf of the wrong kind.
pub fn break_one_leaf(schema: &Schema, v: &Value, pick: &mut impl FnMut(usize) -> usize) -> Value {
    fn leaves(schema: &Schema, t: usize, v: &Value, out: &mut Vec<Repr>) {
        let node = &schema.graph().types[t];
        let (fields, vals) = match (&node.kind, v) {
            (TypeKind::Record { fields }, Value::Record(vals)) => (fields, vals),
            (TypeKind::Variant { cases }, Value::Variant { case, fields: vals }) => {
                match cases.iter().find(|c| c.stable_id == *case) {
                    Some(c) => (&c.fields, vals),
                    None => return,
                }
            }
            _ => return,
        };
        for (f, (_, x)) in fields.iter().zip(vals) {
            match f.ty {
                FieldType::Scalar(r) => out.push(r),
                FieldType::Nested(i) => leaves(schema, i, x, out),
            }
        }
    }
    fn replace(
        schema: &Schema,
        t: usize,
        v: &Value,
        at: &mut usize,
        with: &dyn Fn(Repr) -> Value,
    ) -> Value {
        let node = &schema.graph().types[t];
        let fields = match (&node.kind, v) {
            (TypeKind::Record { fields }, Value::Record(_)) => fields.clone(),
            (TypeKind::Variant { cases }, Value::Variant { case, .. }) => cases
                .iter()
                .find(|c| c.stable_id == *case)
                .map(|c| c.fields.clone())
                .unwrap_or_default(),
            _ => return v.clone(),
        };
        let vals = match v {
            Value::Record(vals) | Value::Variant { fields: vals, .. } => vals,
            _ => return v.clone(),
        };
        let new: Vec<(String, Value)> = fields
            .iter()
            .zip(vals)
            .map(|(f, (id, x))| {
                let nx = match f.ty {
                    FieldType::Scalar(r) => {
                        let here = *at == 0;
                        *at = at.wrapping_sub(1);
                        if here {
                            with(r)
                        } else {
                            x.clone()
                        }
                    }
                    FieldType::Nested(i) => replace(schema, i, x, at, with),
                };
                (id.clone(), nx)
            })
            .collect();
        match v {
            Value::Variant { case, .. } => Value::Variant {
                case: case.clone(),
                fields: new,
            },
            _ => Value::Record(new),
        }
    }
    let root = schema.graph().root_index();
    let mut all = Vec::new();
    leaves(schema, root, v, &mut all);
    if all.is_empty() {
        return v.clone();
    }
    let mut at = pick(all.len());
    let kind = pick(4);
    let with = move |r: Repr| -> Value {
        match (r, kind) {
            (Repr::I32, 0) => Value::I64(i64::from(i32::MAX) + 1),
            (Repr::I32, _) => Value::I64(i64::from(i32::MIN) - 1),
            (Repr::U8, 0) => Value::U64(256),
            (Repr::U8 | Repr::U64 | Repr::I64, _) if kind >= 2 => Value::String("7".into()),
            (Repr::U8 | Repr::U64 | Repr::I64 | Repr::Bool, _) => Value::String("x".into()),
            (Repr::String, 0 | 1) => Value::String("é".repeat(2049)),
            (Repr::String, _) => Value::Bool(true),
            (Repr::Bytes, 0 | 1) => Value::Bytes(vec![7; 4097]),
            (Repr::Bytes, _) => Value::String("AAH/".into()),
        }
    };
    replace(schema, root, v, &mut at, &with)
}
