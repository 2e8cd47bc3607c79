//! Overload resolution among a built-in's candidates, following clang's rules for
//! `__attribute__((overloadable))` in OpenCL C: each argument gets an implicit conversion
//! sequence ranked exact < promotion < conversion < scalar-to-vector widening; the best
//! candidate is at least as good on every argument and better on one, else the call is
//! ambiguous.

use super::{BuiltinError, Overload};
use crate::frontend::types::{AddrSpace, Pointer, Scalar, Type};
use std::cmp::Ordering;

/// The rank of one argument's implicit conversion (C++ [over.ics.scs], plus clang's
/// OpenCL rank for splatting a scalar to a vector, which is worse than any conversion:
/// `mix(float4, float4, 0.5)` picks the `float` third parameter over `float4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Rank {
    Exact,
    Promotion,
    Conversion,
    Widening,
}

/// A ranked argument conversion; `quals_added` counts qualifiers (and the widening of a
/// named address space to `__generic`) added to a pointee, so that among two exact pointer
/// matches the one adding fewer wins, as with C++ qualification-conversion ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Score {
    rank: Rank,
    quals_added: u8,
}

/// How `arg` converts implicitly to a parameter of type `param`, if it does.
pub(super) fn score(arg: &Type, param: &Type) -> Option<Score> {
    let rank = |rank| {
        Some(Score {
            rank,
            quals_added: 0,
        })
    };
    match (arg, param) {
        (Type::Vector(a, n), Type::Vector(p, m)) => {
            // Extended vectors convert only to themselves (no lax vector conversions).
            if a == p && n == m {
                rank(Rank::Exact)
            } else {
                None
            }
        }
        (Type::Scalar(a), Type::Scalar(p)) => rank(scalar_rank(*a, *p)),
        (Type::Enum(_), Type::Scalar(p)) => rank(enum_rank(*p)),
        (Type::Scalar(_) | Type::Enum(_), Type::Vector(..)) => rank(Rank::Widening),
        (Type::Pointer(a), Type::Pointer(p)) => pointer_score(a, p),
        (Type::Opaque(a), Type::Opaque(p)) if a == p => rank(Rank::Exact),
        // The async copies take `0` for "no event" (the checker requires the constant 0).
        (Type::Scalar(Scalar::Int), Type::Opaque("event_t")) => rank(Rank::Conversion),
        _ => None,
    }
}

fn scalar_rank(a: Scalar, p: Scalar) -> Rank {
    if a == p {
        Rank::Exact
    } else if p == Scalar::Int && a.is_integer() && a.rank() < Scalar::Int.rank() {
        // Integral promotion: every type narrower than int fits in int.
        Rank::Promotion
    } else if a == Scalar::Float && p == Scalar::Double {
        Rank::Promotion
    } else {
        // Integral, floating and floating-integral conversions (half -> float is a
        // conversion, not a promotion, because OpenCL's half is a native type in clang).
        Rank::Conversion
    }
}

/// Enumerations promote to their underlying type; ours is always `int` (every enum
/// constant the checker accepts fits in int).
fn enum_rank(p: Scalar) -> Rank {
    if p == Scalar::Int {
        Rank::Promotion
    } else {
        Rank::Conversion
    }
}

fn pointer_score(a: &Pointer, p: &Pointer) -> Option<Score> {
    if a.pointee != p.pointee {
        return None;
    }
    let mut added = 0u8;
    if a.space != p.space {
        let to_generic = p.space == AddrSpace::Generic && a.space != AddrSpace::Constant;
        if !to_generic {
            return None;
        }
        added += 1;
    }
    let (aq, pq) = (a.pointee_quals, p.pointee_quals);
    // Qualifiers may be added to the pointee, never dropped.
    if (aq.is_const && !pq.is_const) || (aq.is_volatile && !pq.is_volatile) {
        return None;
    }
    added += u8::from(pq.is_const && !aq.is_const) + u8::from(pq.is_volatile && !aq.is_volatile);
    Some(Score {
        rank: Rank::Exact,
        quals_added: added,
    })
}

/// More parameters than any built-in has (the longest, an explicit compare-exchange, has 6).
const MAX_PARAMS: usize = 8;

/// Per-argument scores of one candidate, kept inline: resolution runs for every built-in
/// call of every kernel, and most candidates are rejected on their first argument.
type Scores = [Score; MAX_PARAMS];

const UNUSED: Score = Score {
    rank: Rank::Exact,
    quals_added: 0,
};

/// Scores of every argument against `cand`, or None if the candidate is not viable.
fn viable(cand: &Overload, args: &[Type]) -> Option<Scores> {
    if cand.params.len() != args.len() || args.len() > MAX_PARAMS {
        return None;
    }
    let mut out = [UNUSED; MAX_PARAMS];
    for (i, (a, p)) in args.iter().zip(&cand.params).enumerate() {
        out[i] = score(a, p)?;
    }
    Some(out)
}

/// Whether `x` is a strictly better candidate than `y` ([over.match.best]).
fn better(x: &[Score], y: &[Score]) -> bool {
    let mut strictly = false;
    for (a, b) in x.iter().zip(y) {
        match a.cmp(b) {
            Ordering::Greater => return false,
            Ordering::Less => strictly = true,
            Ordering::Equal => {}
        }
    }
    strictly
}

/// Picks the best viable candidate for `args`.
pub(super) fn best<'a>(
    name: &str,
    cands: &'a [Overload],
    args: &[Type],
) -> Result<&'a Overload, BuiltinError> {
    let scored: Vec<(&Overload, Scores)> = cands
        .iter()
        .filter_map(|c| viable(c, args).map(|s| (c, s)))
        .collect();
    let Some(mut champ) = scored.first() else {
        return Err(BuiltinError::NoMatch(no_match_message(name, cands, args)));
    };
    // Clang's tournament: keep whichever of the pair is better, then verify the winner
    // beats everyone (betterness is not transitive in general).
    for c in &scored[1..] {
        if better(&c.1, &champ.1) {
            champ = c;
        }
    }
    let rivals: Vec<&Overload> = scored
        .iter()
        .filter(|c| !std::ptr::eq(c.0, champ.0) && !better(&champ.1, &c.1))
        .map(|c| c.0)
        .collect();
    if rivals.is_empty() {
        Ok(champ.0)
    } else {
        let mut all = vec![champ.0];
        all.extend(rivals);
        Err(BuiltinError::Ambiguous(format!(
            "call to '{name}' with arguments ({}) is ambiguous; candidates: {}",
            type_list(args),
            candidate_list(name, &all)
        )))
    }
}

/// How many candidates an error message lists before saying "and N more".
const LISTED: usize = 4;

fn no_match_message(name: &str, cands: &[Overload], args: &[Type]) -> String {
    // Generic-space forms (OpenCL 2.0) are noise unless the call uses that space.
    let generic_call = args.iter().any(is_generic_pointer)
        || cands
            .iter()
            .all(|c| c.params.iter().any(is_generic_pointer));
    // Show the nearest misses first: same arity, then most arguments that convert.
    let mut near: Vec<(usize, &Overload)> = cands
        .iter()
        .filter(|c| generic_call || !c.params.iter().any(is_generic_pointer))
        .map(|c| {
            let miss = if c.params.len() == args.len() {
                args.iter()
                    .zip(&c.params)
                    .filter(|(a, p)| score(a, p).is_none())
                    .count()
            } else {
                args.len().max(c.params.len()) + 1
            };
            (miss, c)
        })
        .collect();
    near.sort_by_key(|(miss, _)| *miss);
    let shown: Vec<&Overload> = near.iter().map(|(_, c)| *c).collect();
    format!(
        "no matching function for call to '{name}' with arguments ({}); candidates include: {}",
        type_list(args),
        candidate_list(name, &shown)
    )
}

fn is_generic_pointer(t: &Type) -> bool {
    t.pointer().is_some_and(|p| p.space == AddrSpace::Generic)
}

fn type_list(ts: &[Type]) -> String {
    ts.iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn candidate_list(name: &str, cands: &[&Overload]) -> String {
    let mut parts: Vec<String> = cands
        .iter()
        .take(LISTED)
        .map(|c| format!("{} {name}({})", c.ret, type_list(&c.params)))
        .collect();
    if cands.len() > LISTED {
        parts.push(format!("and {} more", cands.len() - LISTED));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(k: Scalar) -> Type {
        Type::Scalar(k)
    }

    #[test]
    fn ranks_follow_cxx_standard_conversions() {
        let r = |a, p| score(&s(a), &s(p)).map(|x| x.rank);
        assert_eq!(r(Scalar::Int, Scalar::Int), Some(Rank::Exact));
        assert_eq!(r(Scalar::Char, Scalar::Int), Some(Rank::Promotion));
        assert_eq!(r(Scalar::UShort, Scalar::Int), Some(Rank::Promotion));
        assert_eq!(r(Scalar::Char, Scalar::UInt), Some(Rank::Conversion));
        assert_eq!(r(Scalar::Float, Scalar::Double), Some(Rank::Promotion));
        assert_eq!(r(Scalar::Double, Scalar::Float), Some(Rank::Conversion));
        assert_eq!(r(Scalar::Int, Scalar::ULong), Some(Rank::Conversion));
        assert_eq!(r(Scalar::Half, Scalar::Float), Some(Rank::Conversion));
        let w = score(&s(Scalar::Float), &Type::Vector(Scalar::Float, 4)).map(|x| x.rank);
        assert_eq!(w, Some(Rank::Widening));
        assert_eq!(
            score(
                &Type::Vector(Scalar::Int, 4),
                &Type::Vector(Scalar::UInt, 4)
            ),
            None
        );
        assert_eq!(score(&Type::Vector(Scalar::Int, 4), &s(Scalar::Int)), None);
    }

    #[test]
    fn enums_promote_to_int() {
        let e = Type::Enum(crate::frontend::types::EnumId(0));
        let r = |p| score(&e, &s(p)).map(|x| x.rank);
        assert_eq!(r(Scalar::Int), Some(Rank::Promotion));
        assert_eq!(r(Scalar::UInt), Some(Rank::Conversion));
        let sig = super::super::resolve("get_global_id", std::slice::from_ref(&e)).unwrap();
        assert_eq!(sig.ret, s(Scalar::ULong));
        // abs(int) wins by promotion over every other integer overload.
        let sig = super::super::resolve("abs", &[e]).unwrap();
        assert_eq!(sig.ret, s(Scalar::UInt));
    }

    #[test]
    fn messages_name_the_call_and_candidates() {
        use super::super::{ptr, resolve};
        let f3 = Type::Vector(Scalar::Float, 3);
        let c = ptr(s(Scalar::Float), AddrSpace::Constant, false, false);
        let Err(BuiltinError::NoMatch(m)) = resolve("vstore3", &[f3, s(Scalar::ULong), c]) else {
            panic!("vstore3 to __constant must not resolve");
        };
        assert!(
            m.contains("'vstore3'") && m.contains("__constant float *"),
            "{m}"
        );
        assert!(
            m.contains("void vstore3(float3, ulong, __global float *)"),
            "{m}"
        );
        assert!(!m.contains("__generic"), "named spaces first: {m}");
        let Err(BuiltinError::Ambiguous(m)) = resolve("max", &[s(Scalar::UInt), Type::int()])
        else {
            panic!("max(uint, int) is ambiguous in clang");
        };
        assert!(
            m.contains("uint max(uint, uint)") && m.contains("int max(int, int)"),
            "{m}"
        );
    }

    #[test]
    fn pointers_may_gain_qualifiers_not_lose_them() {
        use super::super::ptr;
        let f = s(Scalar::Float);
        let plain = ptr(f.clone(), AddrSpace::Global, false, false);
        let konst = ptr(f.clone(), AddrSpace::Global, true, false);
        let local = ptr(f.clone(), AddrSpace::Local, true, false);
        let generic = ptr(f.clone(), AddrSpace::Generic, false, false);
        assert_eq!(score(&plain, &konst).map(|x| x.quals_added), Some(1));
        assert_eq!(score(&konst, &plain), None);
        assert_eq!(score(&plain, &local), None);
        assert_eq!(score(&plain, &generic).map(|x| x.quals_added), Some(1));
        let cst = ptr(f, AddrSpace::Constant, false, false);
        assert_eq!(score(&cst, &generic), None);
    }
}
