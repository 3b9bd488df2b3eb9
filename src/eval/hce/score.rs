//! A middlegame/endgame pair of centipawn values, the unit every evaluation weight has.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// Shorthand for `S(mg, eg)`, which keeps the generated weight tables short.
pub const fn s(mg: i32, eg: i32) -> S {
    S(mg, eg)
}

impl S {
    /// The zero pair.
    pub const ZERO: S = S(0, 0);

    /// The middlegame value.
    #[inline]
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame value.
    #[inline]
    pub const fn eg(self) -> i32 {
        self.1
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, other: S) -> S {
        S(self.0 + other.0, self.1 + other.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, other: S) -> S {
        S(self.0 - other.0, self.1 - other.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, other: S) {
        *self = *self + other;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, other: S) {
        *self = *self - other;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, factor: i32) -> S {
        S(self.0 * factor, self.1 * factor)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
