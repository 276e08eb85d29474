use super::general::general;
use super::*;

/// The general lexer alone, over the whole text: what `lex` must agree with.
fn slow_lex(src: &str) -> (Vec<(Tok, Span)>, Vec<Diag>, bool) {
    let general = general(Texts::Owned).map_with(|lexeme, e| {
        let span: SimpleSpan = e.span();
        (lexeme, span.into_range())
    });
    let all = general
        .repeated()
        .collect::<Vec<_>>()
        .then_ignore(end())
        .parse(src)
        .into_output()
        .unwrap();
    let (mut toks, mut errs, mut open) = (vec![], vec![], false);
    for (l, span) in all {
        if let Some(t) = l.tok {
            toks.push((t, span));
        }
        errs.extend(l.errors);
        open |= l.open_comment;
    }
    (toks, errs, open)
}

#[test]
fn fast_path_agrees_with_the_general_lexer() {
    let cases = [
        "let w = f32[3] {1.5, -2e-3, 5.}\nthen w ~= {1, 2, 3} within 1e-3",
        "x.shape .5 1.2.3 12abc 1e 1e+ 1ex 4x2x3 2x 4x2x 5e3x",
        "a->b -> - > >= >>> ==> == = != ! && || ~= // c\n/* d\n */ e /* open",
        "\"s\\n\" \"bad \\q\" \"open\nproduces: produces : produces_x produces",
        "é ü 1.5E+10 inf nan -inf true false comp let then within _a9 A_1",
        "{ {1,2},\r\n\t{3 , 4} } ; (a, b,) [2,3] % * + ?",
        // Operators the fast path reads itself, and their neighbours it leaves alone.
        ">> >>>> =>= === ==>> <=< !== & | ~ ~~= a/b a//c\nd a/*x*/b : :: -->",
        "comp f(x: f32[2x2], y: (s32, pred)) -> f32 { let z = x * 2; z / 3 }",
    ];
    for src in cases {
        let fast = lex(src);
        let (toks, errs, open) = slow_lex(src);
        assert_eq!(fast.toks, toks, "tokens of {src:?}");
        let spans = |d: &[Diag]| {
            d.iter()
                .map(|d| (d.span.clone(), d.message.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(spans(&fast.errors), spans(&errs), "errors of {src:?}");
        assert_eq!(fast.open_comment, open, "open comment in {src:?}");
    }
}

/// What `lex_runs` reads as one `NumRun`: the numbers' texts, signs and spans.
fn runs(src: &str) -> Vec<Vec<(String, bool, Span)>> {
    let lexed = lex_runs(src);
    assert!(lexed.errors.is_empty(), "{src:?}");
    lexed
        .toks
        .iter()
        .filter_map(|(t, _)| match t {
            Tok::NumRun(run) => Some(
                run.iter()
                    .map(|n| (n.text.to_string(), n.negative, n.span()))
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}

#[test]
fn a_brace_of_plain_numbers_is_one_run_with_each_number_s_span() {
    let src = "{1, -2.5 ,\n inf, - nan, 1e-3,}";
    let items = |v: &[(&str, bool, Span)]| {
        v.iter()
            .map(|(t, n, s)| (t.to_string(), *n, s.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        runs(src),
        vec![items(&[
            ("1", false, 1..2),
            ("2.5", true, 4..8),
            ("inf", false, 12..15),
            ("nan", true, 17..22),
            ("1e-3", false, 24..28),
        ])]
    );
    // The span of the run is the whole brace.
    let lexed = lex_runs(src);
    assert_eq!(lexed.toks.len(), 1);
    assert_eq!(lexed.toks[0].1, 0..src.len());
    // Rows of a nested literal are runs; the outer braces stay tokens.
    assert_eq!(runs("{{1, 2}, {3, 4}}").len(), 2);
    assert_eq!(lex_runs("{{1, 2}, {3, 4}}").toks.len(), 5);
}

#[test]
fn anything_but_plain_numbers_is_lexed_token_by_token() {
    for src in [
        "{}",
        "{1 2}",
        "{1,, 2}",
        "{,1}",
        "{1, x}",
        "{1, /* c */ 2}",
        "{1, // c\n 2}",
        "{4x2}",
        "{1, 2e}",
        "{1, --2}",
        "{1, ->}",
        "{1, 2",
        "{1, \"s\"}",
        "{1, true}",
        "{1, infinity}",
    ] {
        let (fast, slow) = (lex_runs(src), lex(src));
        assert_eq!(fast.toks, slow.toks, "{src:?}");
        assert_eq!(fast.errors.len(), slow.errors.len(), "{src:?}");
    }
}

#[test]
fn pasted_weights_lex_fast() {
    // ~11 MB of numbers: the general lexer alone read well under 1 MB/s.
    let body: Vec<String> = (0..1_000_000)
        .map(|i| format!("{:.6}", (i as f64 * 0.37).sin()))
        .collect();
    let src = format!("let w = f32[1000000] {{{}}}", body.join(", "));
    let t = std::time::Instant::now();
    let lexed = lex(&src);
    assert!(lexed.toks.len() > 2_000_000);
    assert!(lexed.errors.is_empty());
    assert!(
        !lexed
            .toks
            .iter()
            .any(|(t, _)| matches!(t, Tok::Bad(_) | Tok::Error))
    );
    assert!(
        t.elapsed().as_secs() < 5,
        "lexing {} MB took {:?}",
        src.len() >> 20,
        t.elapsed()
    );
}

#[test]
fn bare_tokens_are_the_owned_ones_with_their_texts_left_in_the_source() {
    for src in [
        "let a1 = Add(a0, f32[4] {1, 2.5, -1, 1})  // step 1",
        "comp g2(x: f32[2x3]) -> f32 { g1(x) }",
        "then x ~= {inf, -nan, 1e-3} within 1e-5; s32[4,2] 7",
        "CustomCall(\"my\\tfunc\", x) 2x 1e 4x2x3 é",
    ] {
        let (bare, owned) = (lex_runs_bare(src), lex_runs(src));
        assert_eq!(bare.toks.len(), owned.toks.len(), "{src:?}");
        assert_eq!(bare.errors.len(), owned.errors.len(), "{src:?}");
        for ((b, bs), (o, os)) in bare.toks.iter().zip(&owned.toks) {
            assert_eq!(bs, os, "{src:?}");
            match (b, o) {
                (Tok::Int(t), Tok::Int(w))
                | (Tok::Float(t), Tok::Float(w))
                | (Tok::Dims(t), Tok::Dims(w))
                | (Tok::Ident(t), Tok::Ident(w)) => {
                    assert!(t.is_empty(), "{src:?}: {t:?}");
                    assert_eq!(&src[os.clone()], w, "{src:?}");
                }
                _ => assert_eq!(b, o, "{src:?}"),
            }
        }
    }
}
