//! Expansion: Harris's double expansion of a tip (its sons and their replies, with the
//! alpha-beta cutoff whose alpha the band lowers), and the estimates that value the new
//! tips, scouted where a bound is enough.

use super::best_first::{BestFirst, Expansion};
use super::game_tree::{Accuracy, GameTree, Tip, Window};
use super::tree::{CUT, DROPPED, EXHAUSTED, Node, NodeId, PROVEN, TERMINAL};
use super::window::{Band, NO_VALUE, back_up};

impl<G: GameTree> BestFirst<G> {
    /// Expands the tip `id` at the end of the path: two plies, or one when the tip is off
    /// the regular parity (a revived stub). The new tips look as far ahead as the search
    /// asks at their ply, or, below the root when estimates deepen, if that was further, as
    /// the expanded tip did less what the search asks less at their ply than at its own (the
    /// taper, and the extra ply an off-parity tip gets), so that no line loses more than the
    /// taper by growing. In a double expansion whose replies are each valued (Harris's way)
    /// the sons, whose estimates only order them, look one ply less; where one probe per son
    /// stands in for its replies (see [`add_replies`](BestFirst::add_replies)), one ply more.
    /// Every move that [extends](GameTree::extends) a line adds its ply to the tips below it.
    pub(super) fn expand(&mut self, id: NodeId, abort: &mut dyn FnMut() -> bool) -> Expansion {
        let depth = self.path.len() - 1;
        let mark = self.tree.len();
        let pos = self.path.last_pos().clone();
        let restrict = depth == 0 && self.is_restricted();
        let double = self.look_ahead.is_regular_ply(depth);
        let tips_ply = depth + if double { 2 } else { 1 };
        let ext = self.path.extension(&self.tree, depth);
        let asked = self.look_ahead.regular_at(tips_ply, ext, self.reach());
        let step_down = self.look_ahead_at(depth, ext) - asked;
        // Only a schedule that deepens lines horizons up. Elsewhere (Harris's) a tip deeper
        // than the schedule is one a frozen tree looked further from, and the root has no
        // cousins to line up with, while a tip root may carry such an estimate (a move
        // played can make that tip the root): expanding either at its own depth would probe
        // every grandson as far ahead, which can outlast any depth or clock asked.
        let deepens = self.reach().deepens();
        let lines_up = depth > 0 && deepens;
        let own = if lines_up { self.tree.node(id).depth().saturating_sub(step_down) } else { 0 };
        let look_ahead = asked.max(own);
        let by_probes = double && deepens;
        let sons_look_ahead = if by_probes {
            look_ahead + 1
        } else if double {
            look_ahead.saturating_sub(1)
        } else {
            look_ahead
        };
        let (first, count) = match self.make_sons(&pos, depth + 1, sons_look_ahead, restrict, abort) {
            Ok(block) => block,
            Err(e) => {
                self.tree.truncate(mark);
                return e;
            }
        };
        if count == 0 {
            // Only possible when the game did not report the end itself.
            let node = self.tree.node_mut(id);
            node.set_flags(node.flags() | TERMINAL | PROVEN | EXHAUSTED);
            self.tree.truncate(mark);
            return Expansion::Done;
        }
        if double {
            self.sort_sons(first, count);
            let sons = std::mem::take(&mut self.son_pos);
            let result = if by_probes {
                self.add_replies(first, &sons, look_ahead, depth == 0)
            } else {
                self.expand_grandsons(first, &sons, depth + 2, look_ahead, abort)
            };
            self.son_pos = sons;
            if let Err(e) = result {
                self.tree.truncate(mark);
                return e;
            }
        }
        self.deepest = self.deepest.max(tips_ply);
        self.tree.node_mut(id).set_children(first, count);
        Expansion::Done
    }

    /// Creates and values the sons of `pos` in a new block, looking `depth` ahead (a son
    /// whose move [extends](GameTree::extends) the line further); returns the block and its
    /// size.
    fn make_sons(
        &mut self,
        pos: &G::Pos,
        ply: usize,
        depth: u32,
        restrict: bool,
        abort: &mut dyn FnMut() -> bool,
    ) -> Result<(NodeId, usize), Expansion> {
        self.moves.clear();
        self.game.moves(pos, &mut self.moves);
        if restrict {
            let codes = &self.root_moves;
            let game = &self.game;
            self.moves.retain(|&m| codes.contains(&game.code(m)));
        }
        let count = self.moves.len().min(u8::MAX as usize);
        let first = self.tree.alloc(count).ok_or(Expansion::Full)?;
        self.son_pos.clear();
        // The best son so far, from the father's view: a son more than the band below it
        // needs only a bound (from its own side, one at or above the window's top).
        let mut best = NO_VALUE;
        let band = self.band();
        let father = self.path_window();
        let chained = band.keys_are_values() && father.alpha < father.beta;
        for k in 0..count {
            let mv = self.moves[k];
            let child = self.game.play(pos, mv);
            let brother = (best != NO_VALUE).then_some(best);
            let mut window = if chained { band.son_window(father, brother) } else { band.window(best) };
            if window.alpha >= window.beta {
                // The sons so far take this node out of its window: the rest only need
                // their place in the band.
                window = band.window(best);
            }
            let extension = self.extension(&child);
            let child_depth = self.reach().extended(depth, extension);
            let reduction = if self.params.selective() { self.game.reduction(pos, &child, k, child_depth) } else { 0 };
            let tip = self.estimate(&child, ply, child_depth, window, true, reduction);
            if !self.game.reserve(1) {
                return Err(Expansion::Aborted);
            }
            best = best.max(back_up(tip.value));
            self.stats.created += 1;
            *self.tree.node_mut(first + k as NodeId) = Node::tip(self.game.code(mv), tip).with_extension(extension);
            self.son_pos.push(child);
            if abort() {
                return Err(Expansion::Aborted);
            }
        }
        Ok((first, count))
    }

    /// Orders a fresh block of sons (and their positions) by key, best first.
    fn sort_sons(&mut self, first: NodeId, count: usize) {
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(back_up(self.tree.node(first + k as NodeId).value())));
        let nodes: Vec<Node> = order.iter().map(|&k| *self.tree.node(first + k as NodeId)).collect();
        let positions: Vec<G::Pos> = order.iter().map(|&k| self.son_pos[k].clone()).collect();
        for (k, node) in nodes.into_iter().enumerate() {
            *self.tree.node_mut(first + k as NodeId) = node;
        }
        self.son_pos = positions;
    }

    /// The second ply of a double expansion when estimates deepen. Each son was valued by
    /// one probe a ply deeper than its replies would be, inside the band's window: that is
    /// the alpha-beta value of its replies, at the cost of one search instead of one per
    /// reply. A son outside the window is cut (its value a bound). Every son inside gets
    /// all its replies, as Harris's double expansion wants, each holding the son's value as
    /// a bound (no reply is better for the opponent than his best), with the prober's best
    /// reply first: selection values a reply only when it reaches it, best reply first.
    /// `at_root`: the sons are the root's.
    fn add_replies(&mut self, first: NodeId, sons: &[G::Pos], look_ahead: u32, at_root: bool) -> Result<(), Expansion> {
        for (k, pos) in sons.iter().enumerate() {
            let s = first + k as NodeId;
            let son = *self.tree.node(s);
            if son.has(TERMINAL) {
                continue;
            }
            if son.is_bound() {
                let dropped = self.cut_drop(at_root);
                self.tree.node_mut(s).set_flags(son.flags() | CUT | dropped);
                continue;
            }
            self.moves.clear();
            self.game.moves(pos, &mut self.moves);
            let count = self.moves.len().min(u8::MAX as usize);
            if count == 0 {
                continue;
            }
            if !self.game.reserve(count as u64) {
                return Err(Expansion::Aborted);
            }
            let block = self.tree.alloc(count).ok_or(Expansion::Full)?;
            for j in 0..count {
                let mv = self.moves[j];
                // The reply's extension is known only from its position: a bound that looked
                // less far ahead than its line asks is behind, and the sweep renews it.
                let reply_pos = self.game.play(pos, mv);
                let extension = self.extension(&reply_pos);
                let reply_look_ahead = self.reach().extended(look_ahead, son.extension() + extension);
                let reply = Tip::bound_at(-son.value(), reply_look_ahead, Accuracy::Lower);
                *self.tree.node_mut(block + j as NodeId) =
                    Node::tip(self.game.code(mv), reply).with_extension(extension);
            }
            self.stats.created += count as u64;
            self.tree.node_mut(s).set_children(block, count);
            self.recompute(s);
        }
        Ok(())
    }

    /// The second ply of a double expansion, alpha-beta style with alpha lowered by the
    /// band: a son whose replies already put it more than B below the best finished son
    /// keeps no grandsons (it is `CUT`, its value a bound).
    fn expand_grandsons(
        &mut self,
        first: NodeId,
        sons: &[G::Pos],
        ply: usize,
        look_ahead: u32,
        abort: &mut dyn FnMut() -> bool,
    ) -> Result<(), Expansion> {
        let band = self.band();
        let mut best = NO_VALUE;
        for (k, pos) in sons.iter().enumerate() {
            let s = first + k as NodeId;
            if self.tree.node(s).has(TERMINAL) {
                best = best.max(back_up(self.tree.node(s).value()));
                continue;
            }
            self.game.enter(pos);
            let result = self.expand_son(s, pos, ply, look_ahead, best, band, abort);
            self.game.leave();
            result?;
            let son = self.tree.node(s);
            if !son.has(CUT) {
                best = best.max(back_up(son.value()));
            }
            if abort() {
                return Err(Expansion::Aborted);
            }
        }
        Ok(())
    }

    /// The flag a son cut in a double expansion gets besides `CUT`: in strict mode it is
    /// dropped for good, except a son of the root (`at_root`), whose moves stay selectable.
    fn cut_drop(&self, at_root: bool) -> u8 {
        if self.params.strict_harris && !at_root { DROPPED } else { 0 }
    }

    /// Creates the replies of son `s` (entered in the game) until they refute it by more
    /// than the band. `abort` is polled after every reply: with tip probes one son's
    /// replies can take longer than a move may.
    ///
    /// A reply's estimate needs to be exact only inside a window: one that refutes the son
    /// (below `best - band` for the father) cuts it whatever its exact value, and one more
    /// than the band worse for the opponent than his best reply so far is out of the band.
    /// Bounds outside the window are valued again if the band ever moves onto them.
    #[allow(clippy::too_many_arguments)]
    fn expand_son(
        &mut self,
        s: NodeId,
        pos: &G::Pos,
        ply: usize,
        look_ahead: u32,
        best: i32,
        band: Band,
        abort: &mut dyn FnMut() -> bool,
    ) -> Result<(), Expansion> {
        self.moves.clear();
        self.game.moves(pos, &mut self.moves);
        let count = self.moves.len().min(u8::MAX as usize);
        if count == 0 {
            // Only possible when the game did not report the end itself.
            let son = self.tree.node_mut(s);
            son.set_flags(son.flags() | TERMINAL | PROVEN | EXHAUSTED);
            return Ok(());
        }
        let block = self.tree.alloc(count).ok_or(Expansion::Full)?;
        // The opponent's best reply so far, from the son's side.
        let mut reply = NO_VALUE;
        for k in 0..count {
            let mv = self.moves[k];
            let child = self.game.play(pos, mv);
            // Out of the band above (the son's best reply so far is the best key here), or
            // refuting the son below (from the reply's side to move, the father's side).
            let mut window = band.window(reply);
            if !band.is_unlimited() && best != NO_VALUE {
                window.alpha = best - band.width() - 1;
                window.beta = window.beta.max(window.alpha + 1);
            }
            let extension = self.extension(&child);
            let child_look_ahead = self.reach().extended(look_ahead, self.tree.node(s).extension() + extension);
            let tip = self.game.evaluate(&child, ply, child_look_ahead, window);
            if !self.game.reserve(1) {
                return Err(Expansion::Aborted);
            }
            self.stats.created += 1;
            *self.tree.node_mut(block + k as NodeId) = Node::tip(self.game.code(mv), tip).with_extension(extension);
            reply = reply.max(back_up(tip.value));
            if abort() {
                return Err(Expansion::Aborted);
            }
            if !band.is_unlimited() && back_up(reply) < best - band.width() {
                // Refuted: the son is out of the band whatever its other replies do.
                self.tree.truncate(block as usize);
                let dropped = self.cut_drop(ply == 2);
                let son = self.tree.node_mut(s);
                son.set_value(reply);
                son.set_flags(son.flags() | CUT | dropped);
                return Ok(());
            }
        }
        self.tree.node_mut(s).set_children(block, count);
        self.recompute(s);
        Ok(())
    }

    /// The plies the move into `pos` adds to the look-ahead of the line below it: the
    /// game's extension in the hybrid style, none in Harris's.
    fn extension(&self, pos: &G::Pos) -> u32 {
        u32::from(self.params.selective() && self.game.extends(pos))
    }

    /// Values `pos`, `ply` plies below the root, looking `depth` ahead, exactly inside
    /// `window`. With `scout` (a son not expected within the band), where estimates are
    /// searches, the game is first asked only whether the value lies at or above the
    /// window's top, out of the band: a null window answers that for less (in alpha-beta
    /// terms, a non-PV search), and only a son it finds inside is valued again, as PVS
    /// does. A scout `reduction` plies shallower goes first for a late quiet son: if even
    /// that keeps it out of the band, the bound stands for the full look-ahead, as a
    /// late-move reduction does. (A static estimate costs the same in any window: no
    /// scout there.)
    pub(super) fn estimate(
        &mut self,
        pos: &G::Pos,
        ply: usize,
        depth: u32,
        window: Window,
        scout: bool,
        reduction: u32,
    ) -> Tip {
        if scout && self.reach().estimates_search() && window.beta < Window::FULL.beta {
            let null = Window { alpha: window.beta - 1, beta: window.beta };
            if reduction > 0 {
                let tip = self.game.evaluate(pos, ply, depth.saturating_sub(reduction), null);
                if tip.terminal {
                    return tip;
                }
                if tip.value >= window.beta {
                    return Tip::bound_at(tip.value, depth, Accuracy::Lower);
                }
            }
            if window.alpha < null.alpha {
                let tip = self.game.evaluate(pos, ply, depth, null);
                if tip.terminal || tip.value >= window.beta || tip.value <= window.alpha {
                    return tip;
                }
            }
        }
        self.game.evaluate(pos, ply, depth, window)
    }
}
