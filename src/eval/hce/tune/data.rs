//! Labelled positions for the tuner: each position's term counts, phase, scale and result.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::eval::hce::score::S;
use crate::eval::hce::trace::{Trace, term_of};
use crate::eval::hce::{params::PHASE_TOTAL, params::SCALE_NORMAL, trace};

/// One weight's count in one position: the weight's flat index and the count.
#[derive(Clone, Copy, Debug)]
pub struct Coefficient {
    /// Index into the flat list of weights.
    pub weight: u16,
    /// White's count minus Black's (linear terms), or one side's count (king attack).
    pub count: i16,
}

/// A position as the tuner sees it.
#[derive(Clone, Debug)]
pub struct TracedPosition {
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
    /// The middlegame score's share of the evaluation.
    pub mg_share: f64,
    /// The endgame score's share of the evaluation, endgame scaling included.
    pub eg_share: f64,
    /// The linear terms, White's counts minus Black's.
    pub linear: Vec<Coefficient>,
    /// The king-attack units of each side that attacks (White first), if it counts.
    pub units: [Vec<Coefficient>; 2],
}

/// Reads the result of an EPD or FEN line: `"1-0"`, `"0-1"`, `"1/2-1/2"` (as in `c9`
/// records) or `[1.0]`, `[0.5]`, `[0.0]`.
pub fn parse_result(line: &str) -> Option<f64> {
    let labels =
        [("\"1-0\"", 1.0), ("\"0-1\"", 0.0), ("\"1/2-1/2\"", 0.5), ("[1.0]", 1.0), ("[0.5]", 0.5), ("[0.0]", 0.0)];
    labels.iter().find(|(label, _)| line.contains(label)).map(|&(_, result)| result)
}

/// Reads one labelled line: the first four FEN fields and the result.
pub fn parse_line(line: &str) -> Result<(Chess, f64), String> {
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    if fields.len() < 4 {
        return Err(format!("not a position: {line}"));
    }
    let result = parse_result(line).ok_or_else(|| format!("no result in: {line}"))?;
    let fen: Fen = format!("{} 0 1", fields.join(" ")).parse().map_err(|e| format!("{e}: {line}"))?;
    let pos = fen.into_position(CastlingMode::Standard).map_err(|e| format!("{e}: {line}"))?;
    Ok((pos, result))
}

/// The sample of `pos` with `result`, its phase and scale as the engine's weights give them.
pub fn sample(pos: &Chess, result: f64, engine_weights: &[S]) -> TracedPosition {
    let trace = trace(pos);
    let blend = trace.blend(pos.board(), engine_weights);
    let phase = f64::from(blend.phase) / f64::from(PHASE_TOTAL);
    let scale = f64::from(blend.scale) / f64::from(SCALE_NORMAL);
    let (linear, units) = coefficients(&trace);
    TracedPosition { result, mg_share: phase, eg_share: (1.0 - phase) * scale, linear, units }
}

/// The trace's non-zero counts, split into linear terms and each side's king-attack units.
fn coefficients(trace: &Trace) -> (Vec<Coefficient>, [Vec<Coefficient>; 2]) {
    let mut linear = Vec::new();
    let mut units = [Vec::new(), Vec::new()];
    for (flat, counts) in trace.counts.iter().enumerate() {
        if counts == &[0, 0] {
            continue;
        }
        let (white, black) = (counts[Color::White as usize], counts[Color::Black as usize]);
        let coefficient = |count: i32| Coefficient { weight: flat as u16, count: count as i16 };
        if term_of(flat).kind().is_safety() {
            for (side, count) in [white, black].into_iter().enumerate() {
                if count != 0 {
                    units[side].push(coefficient(count));
                }
            }
        } else if white != black {
            linear.push(coefficient(white - black));
        }
    }
    (linear, units)
}

/// Loads up to `limit` labelled positions from `text`, tracing them on `threads` threads.
pub fn load(text: &str, limit: usize, threads: usize) -> Result<Vec<TracedPosition>, String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(limit).collect();
    let weights = crate::eval::hce::trace::engine_weights();
    let chunk = lines.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                let weights = &weights;
                scope.spawn(move || {
                    part.iter()
                        .map(|line| parse_line(line).map(|(pos, result)| sample(&pos, result, weights)))
                        .collect::<Result<Vec<_>, String>>()
                })
            })
            .collect();
        let mut samples = Vec::with_capacity(lines.len());
        for worker in workers {
            samples.extend(worker.join().map_err(|_| "a tracing thread panicked".to_string())??);
        }
        Ok(samples)
    })
}
