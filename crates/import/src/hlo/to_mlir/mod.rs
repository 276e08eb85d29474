//! HLO computations written out as StableHLO MLIR text: the ENTRY as
//! `@main`, computations `call`ed as private functions, and computations that
//! ops apply (reducers, comparators, while's condition and body, branches)
//! inlined as the ops' regions.

use super::attrs::{Ctx, IGNORED};
use super::reader::{Comp, Instr, Module};
use super::shape::{Shape, compare_type};
use crate::error::{ImportError, Result};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use xlet_core::span::Span;

mod ops;

/// A value in MLIR: `%x` or `%x#1`, with its shape.
pub type Ref = (String, Shape);

#[derive(Clone, Debug)]
enum Val {
    /// One MLIR value; `parts` when a `tuple` op made it (its elements).
    One { r: Ref, parts: Option<Vec<Ref>> },
    /// An op with several results standing for an HLO tuple.
    Multi {
        base: String,
        shapes: Vec<Shape>,
        tuple: Option<String>,
    },
}

type Env = HashMap<String, Val>;

/// How a region's computation gets its parameters.
enum Args {
    /// As the block's arguments.
    Block,
    /// Bound to values of the enclosing function (a conditional's branch operand).
    Bound(Vec<Ref>),
}

struct RegionSpec {
    comp: String,
    args: Args,
    /// Return a tuple root's elements (several results).
    flatten: bool,
}

pub struct Em<'a> {
    m: &'a Module,
    comps: HashMap<&'a str, &'a Comp>,
    pub out: String,
    pub map: Vec<(Range<usize>, Span)>,
    names: HashSet<String>,
    stack: Vec<String>,
    queue: Vec<String>,
    queued: HashSet<String>,
}

const MAX_NEST: usize = 64;

/// `name` as an MLIR suffix id.
fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, 'v');
    }
    s
}

pub fn symbol(comp: &str) -> String {
    let s = sanitize(comp);
    if s == "main" { "main_".into() } else { s }
}

fn types(refs: &[Ref]) -> String {
    refs.iter()
        .map(|(_, s)| s.mlir())
        .collect::<Vec<_>>()
        .join(", ")
}

fn names(refs: &[Ref]) -> String {
    refs.iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn outs(shapes: &[Shape]) -> String {
    match shapes {
        [one] => one.mlir(),
        _ => format!(
            "({})",
            shapes
                .iter()
                .map(Shape::mlir)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub fn arr(v: &[i64]) -> String {
    if v.is_empty() {
        return "array<i64>".into();
    }
    let s: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("array<i64: {}>", s.join(", "))
}

pub fn list(v: &[i64]) -> String {
    let s: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", s.join(", "))
}

/// `dense<[[lo, hi], ...]> : tensor<Nx2xi64>`.
pub fn pad_pairs(p: &[(i64, i64)]) -> String {
    let s: Vec<String> = p.iter().map(|(l, h)| format!("[{l}, {h}]")).collect();
    format!("dense<[{}]> : tensor<{}x2xi64>", s.join(", "), p.len())
}

impl<'a> Em<'a> {
    pub fn new(m: &'a Module) -> Em<'a> {
        Em {
            m,
            comps: m.comps.iter().map(|c| (c.name.as_str(), c)).collect(),
            out: String::new(),
            map: vec![],
            names: HashSet::new(),
            stack: vec![],
            queue: vec![],
            queued: HashSet::new(),
        }
    }

    fn line(&mut self, depth: usize, text: &str, span: &Span) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        let start = self.out.len();
        self.out.push_str(text);
        let end = self.out.len();
        self.out.push('\n');
        self.map.push((start..end, span.clone()));
    }

    fn fresh(&mut self, hlo: &str) -> String {
        let base = sanitize(hlo);
        let mut n = base.clone();
        let mut k = 1;
        while self.names.contains(&n) {
            n = format!("{base}_{k}");
            k += 1;
        }
        self.names.insert(n.clone());
        format!("%{n}")
    }

    fn comp(&self, name: &str, span: &Span) -> Result<&'a Comp> {
        self.comps
            .get(name)
            .copied()
            .ok_or_else(|| ImportError::at(span.clone(), format!("no computation `{name}`")))
    }

    pub fn module(&mut self) -> Result<()> {
        let m = self.m;
        let entry = m
            .comps
            .iter()
            .find(|c| c.entry)
            .or(m.comps.last())
            .ok_or_else(|| ImportError::at(0..0, "the HLO module has no computation".into()))?;
        let mut attrs = vec![];
        if let Some(p) = m.partitions {
            attrs.push(format!("mhlo.num_partitions = {p} : i32"));
        }
        if let Some(r) = m.replicas {
            attrs.push(format!("mhlo.num_replicas = {r} : i32"));
        }
        let head = if attrs.is_empty() {
            format!("module @{} {{", sanitize(&m.name))
        } else {
            format!(
                "module @{} attributes {{{}}} {{",
                sanitize(&m.name),
                attrs.join(", ")
            )
        };
        self.line(0, &head, &(0..0));
        self.func(entry, true)?;
        let mut i = 0;
        while i < self.queue.len() {
            let name = self.queue[i].clone();
            i += 1;
            let c = self.comp(&name, &entry.span)?;
            self.func(c, false)?;
        }
        self.line(0, "}", &(0..0));
        Ok(())
    }

    /// The parameters of a computation in `parameter(N)` order.
    fn params(&self, c: &'a Comp) -> Result<Vec<&'a Instr>> {
        let mut ps: Vec<(usize, &Instr)> = vec![];
        for ins in c.instrs.iter().filter(|i| i.opcode == "parameter") {
            let n: usize =
                ins.raw.trim().parse().map_err(|_| {
                    ImportError::at(ins.span.clone(), "a parameter's number".into())
                })?;
            ps.push((n, ins));
        }
        ps.sort_by_key(|(n, _)| *n);
        for (k, (n, ins)) in ps.iter().enumerate() {
            if *n != k {
                return Err(ImportError::at(
                    ins.span.clone(),
                    format!(
                        "parameter({n}) of `{}`: the parameters should be numbered 0, 1, ...",
                        c.name
                    ),
                ));
            }
        }
        Ok(ps.into_iter().map(|(_, i)| i).collect())
    }

    fn root(c: &Comp) -> Result<&Instr> {
        c.instrs
            .iter()
            .find(|i| i.root)
            .or(c.instrs.last())
            .ok_or_else(|| {
                ImportError::at(
                    c.span.clone(),
                    format!("the computation `{}` is empty", c.name),
                )
            })
    }

    fn result_shapes(c: &Comp, flatten: bool) -> Result<Vec<Shape>> {
        let r = Self::root(c)?;
        Ok(match (&r.shape, flatten) {
            (Shape::Tuple(p), true) => p.clone(),
            (s, _) => vec![s.clone()],
        })
    }

    fn func(&mut self, c: &'a Comp, entry: bool) -> Result<()> {
        self.names.clear();
        self.stack = vec![c.name.clone()];
        let mut env = Env::new();
        let mut args = vec![];
        for p in self.params(c)? {
            let n = self.fresh(&p.name);
            args.push(format!("{n}: {}", p.shape.mlir()));
            env.insert(
                p.name.clone(),
                Val::One {
                    r: (n, p.shape.clone()),
                    parts: None,
                },
            );
        }
        let res = Self::result_shapes(c, entry)?;
        let head = format!(
            "func.func {} @{}({}) -> ({}) {{",
            if entry { "public" } else { "private" },
            if entry {
                "main".into()
            } else {
                symbol(&c.name)
            },
            args.join(", "),
            res.iter().map(Shape::mlir).collect::<Vec<_>>().join(", ")
        );
        let span = c.span.clone();
        self.line(1, &head, &span);
        let refs = self.body(c, &mut env, 2, entry)?;
        let root_span = Self::root(c)?.span.clone();
        self.line(
            2,
            &format!("return {} : {}", names(&refs), types(&refs)),
            &root_span,
        );
        self.line(1, "}", &span);
        Ok(())
    }

    /// The computation's instructions (but its parameters); returns its root's values.
    fn body(
        &mut self,
        c: &'a Comp,
        env: &mut Env,
        depth: usize,
        flatten: bool,
    ) -> Result<Vec<Ref>> {
        for ins in &c.instrs {
            if ins.opcode == "parameter" {
                continue;
            }
            self.instr(ins, env, depth)?;
        }
        let root = Self::root(c)?;
        let v = env
            .get(&root.name)
            .cloned()
            .ok_or_else(|| ImportError::at(root.span.clone(), "the root has no value".into()))?;
        if !flatten || root.shape.parts().is_none() {
            return Ok(vec![self.use_val(&v, depth, &root.span)]);
        }
        Ok(match v {
            Val::One { parts: Some(p), .. } => p,
            Val::Multi { base, shapes, .. } => shapes
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("{base}#{i}"), s.clone()))
                .collect(),
            Val::One { r, parts: None } => {
                let shapes = r.1.parts().unwrap_or_default().to_vec();
                let mut out = vec![];
                for (i, s) in shapes.into_iter().enumerate() {
                    let n = self.fresh(&format!("{}_{i}", root.name));
                    self.line(
                        depth,
                        &format!(
                            "{n} = \"stablehlo.get_tuple_element\"({}) <{{index = {i} : i32}}> : ({}) -> {}",
                            r.0,
                            r.1.mlir(),
                            s.mlir()
                        ),
                        &root.span,
                    );
                    out.push((n, s));
                }
                out
            }
        })
    }

    /// A value as one MLIR value (a tuple made for an op's several results).
    fn use_val(&mut self, v: &Val, depth: usize, span: &Span) -> Ref {
        match v {
            Val::One { r, .. } => r.clone(),
            Val::Multi {
                base,
                shapes,
                tuple,
            } => {
                let sh = Shape::Tuple(shapes.clone());
                if let Some(t) = tuple {
                    return (t.clone(), sh);
                }
                let t = self.fresh(&format!("{}_tuple", &base[1..]));
                let parts: Vec<Ref> = shapes
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (format!("{base}#{i}"), s.clone()))
                    .collect();
                self.line(
                    depth,
                    &format!(
                        "{t} = \"stablehlo.tuple\"({}) : ({}) -> {}",
                        names(&parts),
                        types(&parts),
                        sh.mlir()
                    ),
                    span,
                );
                (t, sh)
            }
        }
    }

    fn operand(&mut self, env: &mut Env, name: &str, span: &Span, depth: usize) -> Result<Ref> {
        let v = env.get(name).cloned().ok_or_else(|| {
            ImportError::at(
                span.clone(),
                format!("`{name}` is used before it is defined"),
            )
        })?;
        let r = self.use_val(&v, depth, span);
        if let Val::Multi { base, shapes, .. } = v {
            env.insert(
                name.to_string(),
                Val::Multi {
                    base,
                    shapes,
                    tuple: Some(r.0.clone()),
                },
            );
        }
        Ok(r)
    }

    /// An op in the generic form, with its regions.
    #[allow(clippy::too_many_arguments)]
    fn generic(
        &mut self,
        depth: usize,
        ins: &Instr,
        env: &mut Env,
        op: &str,
        operands: &[Ref],
        props: &[String],
        regions: Vec<RegionSpec>,
        multi: bool,
    ) -> Result<()> {
        let shapes: Vec<Shape> = match (&ins.shape, multi) {
            (Shape::Tuple(p), true) => p.clone(),
            (s, _) => vec![s.clone()],
        };
        let n = self.fresh(&ins.name);
        let res = if multi {
            format!("{n}:{}", shapes.len())
        } else {
            n.clone()
        };
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" <{{{}}}>", props.join(", "))
        };
        let sig = format!("({}) -> {}", types(operands), outs(&shapes));
        let head = format!("{res} = \"{op}\"({}){props}", names(operands));
        if regions.is_empty() {
            self.line(depth, &format!("{head} : {sig}"), &ins.span);
        } else {
            self.line(depth, &format!("{head} ({{"), &ins.span);
            for (k, r) in regions.into_iter().enumerate() {
                if k > 0 {
                    self.line(depth, "}, {", &ins.span);
                }
                self.region(r, depth + 1, &ins.span)?;
            }
            self.line(depth, &format!("}}) : {sig}"), &ins.span);
        }
        let v = if multi {
            Val::Multi {
                base: n,
                shapes,
                tuple: None,
            }
        } else {
            Val::One {
                r: (n, ins.shape.clone()),
                parts: None,
            }
        };
        env.insert(ins.name.clone(), v);
        Ok(())
    }

    /// A computation inlined as a region.
    fn region(&mut self, r: RegionSpec, depth: usize, user: &Span) -> Result<()> {
        if self.stack.contains(&r.comp) || self.stack.len() > MAX_NEST {
            return Err(ImportError::unsupported(
                user.clone(),
                format!("the computation `{}` applies itself", r.comp),
            ));
        }
        let c = self.comp(&r.comp, user)?;
        self.stack.push(r.comp.clone());
        let params = self.params(c)?;
        let mut env = Env::new();
        match r.args {
            Args::Block => {
                let mut args = vec![];
                for p in &params {
                    let n = self.fresh(&p.name);
                    args.push(format!("{n}: {}", p.shape.mlir()));
                    env.insert(
                        p.name.clone(),
                        Val::One {
                            r: (n, p.shape.clone()),
                            parts: None,
                        },
                    );
                }
                self.line(depth - 1, &format!("^bb0({}):", args.join(", ")), &c.span);
            }
            Args::Bound(refs) => {
                if refs.len() != params.len() {
                    return Err(ImportError::at(
                        user.clone(),
                        format!(
                            "`{}` takes {} parameters, given {}",
                            c.name,
                            params.len(),
                            refs.len()
                        ),
                    ));
                }
                for (p, r) in params.iter().zip(refs) {
                    env.insert(p.name.clone(), Val::One { r, parts: None });
                }
            }
        }
        let refs = self.body(c, &mut env, depth, r.flatten)?;
        let root_span = Self::root(c)?.span.clone();
        self.line(
            depth,
            &format!("stablehlo.return {} : {}", names(&refs), types(&refs)),
            &root_span,
        );
        self.stack.pop();
        Ok(())
    }

    fn instr(&mut self, ins: &'a Instr, env: &mut Env, depth: usize) -> Result<()> {
        let cx = Ctx::new(ins);
        let mut ops = vec![];
        for (n, sp) in &ins.operands {
            ops.push(self.operand(env, n, sp, depth)?);
        }
        self.op(&cx, ins, env, depth, &ops)?;
        for a in &ins.attrs {
            if !cx.used(&a.key) && !IGNORED.contains(&a.key.as_str()) {
                return Err(ImportError::unsupported(
                    a.span.clone(),
                    format!("the attribute `{}` of the HLO op `{}`", a.key, ins.opcode),
                ));
            }
        }
        Ok(())
    }

    fn alias(&mut self, ins: &Instr, env: &mut Env, r: Ref) {
        env.insert(ins.name.clone(), Val::One { r, parts: None });
    }
}
