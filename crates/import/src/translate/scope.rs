//! What the module's value names stand for in the xlet program being written.

use crate::mlir::items::{Item, Region};
use std::collections::{HashMap, HashSet};
use xlet_core::types::Type;

/// A module value: an xlet name, or a tuple whose elements are the op's results.
#[derive(Clone, Debug)]
pub struct Bound {
    name: String,
    /// The number of results held as a tuple; `None` for one value.
    tuple: Option<usize>,
    types: Vec<Type>,
}

impl Bound {
    pub fn value(name: &str, ty: Option<Type>) -> Bound {
        Bound {
            name: name.to_string(),
            tuple: None,
            types: ty.into_iter().collect(),
        }
    }
    pub fn tuple(name: &str, count: usize, types: Vec<Type>) -> Bound {
        Bound {
            name: name.to_string(),
            tuple: Some(count),
            types,
        }
    }
    /// The same binding under another xlet name (a captured value inside a branch).
    pub fn renamed(&self, name: &str) -> Bound {
        Bound {
            name: name.to_string(),
            ..self.clone()
        }
    }
    /// The expression for result `index` (`%x` or `%x#i`).
    pub fn expr(&self, index: Option<u32>) -> Option<String> {
        match (self.tuple, index) {
            (None, None | Some(0)) => Some(self.name.clone()),
            (Some(n), Some(i)) if (i as usize) < n => {
                Some(format!("GetTupleElement({}, {i})", self.name))
            }
            (Some(_), None) => Some(self.name.clone()),
            _ => None,
        }
    }
    pub fn type_of(&self, index: Option<u32>) -> Option<Type> {
        match (self.tuple, index) {
            (None, _) => self.types.first().cloned(),
            (Some(_), Some(i)) => self.types.get(i as usize).cloned(),
            (Some(_), None) => Some(Type::Tuple(self.types.clone())),
        }
    }
}

/// Nested scopes: the entry function's (the top level of the program) and
/// one per comp being written.
#[derive(Default)]
pub struct Scopes {
    stack: Vec<(bool, HashMap<String, Bound>)>,
    /// The xlet names given in each scope.
    names: Vec<HashSet<String>>,
}

impl Scopes {
    pub fn push(&mut self, top: bool) {
        self.stack.push((top, HashMap::new()));
        self.names.push(HashSet::new());
    }
    pub fn pop(&mut self) {
        self.stack.pop();
        self.names.pop();
    }
    /// Is the current scope the top level (or none: a comp's name)?
    pub fn is_top(&self) -> bool {
        self.stack.last().is_none_or(|(top, _)| *top)
    }
    pub fn names(&self) -> Option<&HashSet<String>> {
        self.names.last()
    }
    pub fn take_name(&mut self, n: &str) {
        if let Some(s) = self.names.last_mut() {
            s.insert(n.to_string());
        }
    }
    pub fn bind(&mut self, name: &str, b: Bound) {
        if let Some((_, m)) = self.stack.last_mut() {
            m.insert(name.to_string(), b);
        }
    }
    /// The innermost binding of `name`, and whether it is visible here: in
    /// the current scope, or at the top level (which comps may read).
    pub fn find(&self, name: &str) -> Option<(&Bound, bool)> {
        let last = self.stack.len().checked_sub(1)?;
        for (i, (top, m)) in self.stack.iter().enumerate().rev() {
            if let Some(b) = m.get(name) {
                return Some((b, i == last || *top));
            }
        }
        None
    }
}

/// Calls `f` on every region inside an item.
pub fn regions_in(item: &Item, f: &mut dyn FnMut(&Region)) {
    match item {
        Item::Region(r) => f(r),
        Item::Group { items, .. } => {
            for i in items {
                regions_in(i, f);
            }
        }
        Item::Tok(_) => {}
    }
}

/// Names xlet gives a meaning of its own: keywords, the prelude's comps,
/// element types and the attribute words. Generated names avoid them.
pub fn reserved() -> HashSet<String> {
    let words = [
        "let",
        "comp",
        "then",
        "true",
        "false",
        "inf",
        "nan",
        "within",
        "add",
        "mul",
        "max",
        "min",
        "and",
        "or",
        "pred",
        "PRED",
        "SAME",
        "VALID",
        "TOTALORDER",
        "FLOAT",
        "SIGNED",
        "UNSIGNED",
        "FFT",
        "IFFT",
        "RFFT",
        "IRFFT",
        "DEFAULT",
        "THREE_FRY",
        "PHILOX",
        "NO_TRANSPOSE",
        "TRANSPOSE",
        "ADJOINT",
        "produces",
    ];
    let mut s: HashSet<String> = words.iter().map(|w| w.to_string()).collect();
    for t in xlet_core::types::ElemType::ALL {
        s.insert(t.name().to_string());
    }
    for t in ["s4", "u4", "s2", "u2"] {
        s.insert(t.to_string());
    }
    s
}
