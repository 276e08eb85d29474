//! Literals: `{1, 2}` with its element type from context or from a written
//! type (`f32[2] {1, 2}`, `(f32[2], s32) ({1, 2}, 5)`), and their checks.

use super::*;

impl Checker<'_> {
    /// `TYPE VALUE`: an array type before a literal, or a tuple type before a
    /// parenthesised tuple of values (how tuples print: `(f32[2], s32) ({1, 2}, 5)`).
    pub(super) fn typed_literal(
        &mut self,
        ty: &TypeExpr,
        value: &Expr,
        span: Span,
    ) -> Result<ir::Expr, Diag> {
        match &ty.kind {
            TypeExprKind::Array { elem, dims } => {
                let t = self.resolve_type(ty)?;
                let declared = dims.as_ref().and(t.as_array().map(|a| a.dims.clone()));
                self.literal(value, Some(*elem), Some((declared, span)))
            }
            TypeExprKind::Tuple(types) => {
                let items: Vec<&Expr> = match &value.kind {
                    ExprKind::Tuple(items) => items.iter().collect(),
                    // `(f32[2],) ({1, 2})`: the parser reads a lone parenthesised value as itself.
                    _ if types.len() == 1 => vec![value],
                    _ => {
                        return Err(Diag::check(
                            "literal",
                            "a tuple type must be followed by a tuple of values: (T1, T2) (v1, v2)",
                            value.span.clone(),
                        )
                        .with_label("not a tuple"));
                    }
                };
                if items.len() != types.len() {
                    return Err(Diag::check(
                        "literal",
                        format!(
                            "the tuple type has {} but {} follow",
                            xlet_core::english::count(types.len(), "element"),
                            xlet_core::english::count(items.len(), "value")
                        ),
                        value.span.clone(),
                    )
                    .with_secondary(ty.span.clone(), "this type"));
                }
                let mut checked = vec![];
                for (t, v) in types.iter().zip(items) {
                    let c = if crate::literal::is_weak(v) || matches!(v.kind, ExprKind::Tuple(_)) {
                        self.typed_literal(t, v, v.span.clone())?
                    } else {
                        self.check_expr(v, None)?
                    };
                    let want = self.resolve_type(t)?;
                    if c.ty != want {
                        return Err(Diag::check(
                            "literal",
                            format!("tuple element is {} but the type says {want}", c.ty),
                            v.span.clone(),
                        )
                        .with_secondary(t.span.clone(), format!("{want}")));
                    }
                    checked.push(c);
                }
                Ok(ir::Expr {
                    ty: Type::Tuple(checked.iter().map(|c| c.ty.clone()).collect()),
                    kind: ir::ExprKind::Tuple(checked),
                    span,
                })
            }
        }
    }

    /// A literal (typed if `declared` is given): builds the constant now.
    pub(super) fn literal(
        &mut self,
        e: &Expr,
        elem: Option<ElemType>,
        declared: Option<(Option<Vec<usize>>, Span)>,
    ) -> Result<ir::Expr, Diag> {
        let mut flat = literal::flatten(e)?;
        if let Some((Some(dims), _)) = &declared {
            // Braces show an empty array's shape down to its first size-0 dimension; the
            // sizes after it come from the type (`f32[2x0x3] {{}, {}}`, as it prints),
            // but `f32[2x0x3] {}` shows [0] and is an error (spec/language.md §6.5).
            if let Some(zero) = dims.iter().position(|&d| d == 0)
                && flat.is_empty()
                && flat.dims == dims[..=zero]
            {
                flat.dims = dims.clone();
            }
        }
        if let Some((Some(dims), span)) = &declared
            && *dims != flat.dims
        {
            return Err(Diag::check(
                "literal",
                format!(
                    "the literal has shape [{}] but its type says [{}]",
                    fmt_dims(&flat.dims),
                    fmt_dims(dims)
                ),
                span.clone(),
            )
            .with_label(format!("the braces hold [{}]", fmt_dims(&flat.dims))));
        }
        if let Some((None, span)) = &declared
            && !flat.dims.is_empty()
        {
            return Err(Diag::check(
                "literal",
                format!(
                    "a bare element type prefixes a scalar; this literal has shape [{}]",
                    fmt_dims(&flat.dims)
                ),
                span.clone(),
            )
            .with_help("give the shape in the type, e.g. f32[2x3] {{...}, {...}}"));
        }
        let elem = match elem {
            Some(t) => t,
            None => {
                let t = literal::default_elem(&flat)?;
                self.defaulted.push((e.span.clone(), t));
                t
            }
        };
        let ty = Type::Array(ArrayType::new(elem, flat.dims.clone()));
        self.check_size(&ty, &e.span)?;
        let arr = literal::build(&flat, elem, &e.span)?;
        Ok(ir::Expr {
            kind: ir::ExprKind::Const(Value::Array(arr)),
            ty,
            span: declared.map(|(_, s)| s).unwrap_or(e.span.clone()),
        })
    }
}

/// The bytes an array of `a`'s shape would take if every size-0 dimension had
/// size 1 (the product of the nonzero sizes times the element size), exactly
/// (saturating at u128::MAX, far beyond anything addressable).
pub(super) fn extent_bytes(a: &ArrayType) -> u128 {
    a.dims.iter().fold(a.elem.byte_size() as u128, |acc, &d| {
        acc.saturating_mul(d.max(1) as u128)
    })
}

/// An array in `ty` whose nonzero dimension sizes multiply, in bytes, past the
/// address range (`isize::MAX` bytes): even an empty array cannot have such a
/// shape in memory (spec/language.md §8.3). With this bound every product of
/// some of an array's sizes, and its byte size, fit in `isize`.
pub(super) fn extent_overflow(ty: &Type) -> Option<&ArrayType> {
    match ty {
        Type::Array(a) => (extent_bytes(a) > isize::MAX as u128).then_some(a),
        Type::Tuple(ts) => ts.iter().find_map(extent_overflow),
    }
}

/// A value whose type differs from the type written for it.
pub(super) fn declared_mismatch(
    code: &str,
    what: String,
    got: &ir::Expr,
    at: &Span,
    declared_at: &Span,
    want: &Type,
) -> Diag {
    Diag::check(code, what, at.clone())
        .with_label(format!("this is {}", got.ty))
        .with_secondary(declared_at.clone(), format!("declared {want}"))
}

/// The first element type in `t` that is not a float.
pub(super) fn non_float_leaf(t: &Type) -> Option<ElemType> {
    match t {
        Type::Array(a) => (!a.elem.is_float() && !a.elem.is_complex()).then_some(a.elem),
        Type::Tuple(ts) => ts.iter().find_map(non_float_leaf),
    }
}
