//! Types: `f32`, `f32[2x3]`, `(f32, s32)`.

use super::*;

pub(super) fn dim_size(text: &str, span: Span) -> Result<u64, SyntaxError> {
    text.parse::<u64>().map_err(|_| {
        let diag = Diag::syntax(
            format!("found the dimension '{text}' but expected a size that fits in 64 bits"),
            span,
        )
        .with_label("dimension too large");
        SyntaxError::fatal(diag)
    })
}

/// An element type name with optional dimensions: `f32`, `f32[]`, `f32[4x2x3]`, `f32[4,2,3]`.
pub(super) fn array_type<'t>() -> impl Parser<'t, In<'t>, TypeExpr, Extra> + Clone {
    let elem = select_ref! { Tok::Ident(name) => name.as_str() }.filter_map(ElemType::parse);
    let dims_word = select_ref! { Tok::Dims(text) => text.as_str() }.try_map(|text, span: Span| {
        text.split('x')
            .map(|part| dim_size(part, span.clone()))
            .collect::<Result<Vec<u64>, _>>()
    });
    let size = select_ref! { Tok::Int(text) => text.as_str() }
        .labelled(Expect::DimSize)
        .try_map(dim_size);
    let sizes = size
        .separated_by(just(Tok::Comma))
        .allow_trailing()
        .at_least(1)
        .collect::<Vec<u64>>();
    let dims = just(Tok::LBracket)
        .ignore_then(
            choice((dims_word, sizes))
                .labelled(Expect::DimSizes)
                .or_not(),
        )
        .then_ignore(just(Tok::RBracket))
        .map(Option::unwrap_or_default)
        .labelled(Ctx::Dims)
        .as_context();
    elem.then(dims.labelled(Expect::Quiet).or_not())
        .map_with(|(elem, dims), e| TypeExpr {
            kind: TypeExprKind::Array { elem, dims },
            span: e.span(),
        })
}

/// A type: an array type or a tuple of types.
pub(super) fn ty<'t>() -> Boxed<'t, 't, In<'t>, TypeExpr, Extra> {
    recursive(|ty| {
        let tuple = just(Tok::LParen)
            .ignore_then(
                ty.separated_by(just(Tok::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>(),
            )
            .then_ignore(just(Tok::RParen))
            .map_with(|elems, e| TypeExpr {
                kind: TypeExprKind::Tuple(elems),
                span: e.span(),
            })
            .labelled(Ctx::TypeTuple)
            .as_context();
        nest(
            "a type",
            choice((array_type(), tuple)).labelled(Expect::Type),
        )
    })
    .boxed()
}
