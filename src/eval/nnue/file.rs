//! The network file: a header that says what the weights are and a checksum of them, then
//! the quantised weights.
//!
//! Header (little-endian): [`NETWORK_MAGIC`], the format version (u32), the input count of
//! a bucket, the hidden size, the number of output buckets, QA, QB and EVAL_SCALE (u32
//! each); in version 3 then the input buckets (u32), whether they mirror (u32, 0 or 1) and
//! the bucket of each king square (64 bytes, a1 first, as the perspective sees it); last
//! the [`checksum`] (u64) of the version 3 fields and the weight bytes. Then the weights:
//! the feature transformer's rows (input-major, bucket by bucket, i16), its bias (i16),
//! the output weights (per output bucket, the side to move's half first, i16), the output
//! biases (one per output bucket, i32).
//!
//! A network without input buckets is written as version 2, the same without the version
//! 3 fields, so that its bytes are those it had before input buckets existed. Version 1,
//! the first networks' format, is read too: version 2 without the output bucket count, one
//! output bucket.

use std::ops::Range;

use super::input_buckets::{INPUT_BUCKET_BYTES, InputBuckets};
use super::{EVAL_SCALE, INPUTS, MAX_BUCKETS, QA, QB};

/// The first bytes of a network file.
pub const NETWORK_MAGIC: [u8; 8] = *b"HRRNNUE1";
/// The layout version this engine writes for a network with input buckets.
pub const VERSION: u32 = 3;
/// The layout version this engine writes for a network without input buckets.
const PLAIN_VERSION: u32 = 2;
/// Bytes before the weights in a version 2 file.
pub const NETWORK_HEADER_BYTES: usize = 44;
/// Where a version 3 file's input bucket fields lie (the checksum covers them).
const INPUT_BUCKET_FIELDS: Range<usize> = 36..36 + INPUT_BUCKET_BYTES;
/// Bytes before the weights in a version 3 file.
const VERSION_3_HEADER_BYTES: usize = 116;
/// Bytes before the weights in a version 1 file (no bucket count).
const VERSION_1_HEADER_BYTES: usize = 40;
/// The widest hidden layer a network file or checkpoint may claim, so that a damaged size
/// cannot ask for a huge buffer.
pub const MAX_FILE_HIDDEN: usize = 1 << 16;
/// FNV-1a's offset basis and prime (64-bit).
const FNV_BASIS: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

/// A quantised network of any hidden size, as a file holds it. The engine loads the
/// shapes [`super::check_shape`] allows ([`super::Network`]); the trainer writes others too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNet {
    /// Which rows each perspective reads, by where its king stands.
    pub input_buckets: InputBuckets,
    /// `input buckets x INPUTS x hidden` weights, one row of `hidden` per input, scaled by QA.
    pub feature_weights: Vec<i16>,
    /// `hidden` biases, scaled by QA.
    pub feature_bias: Vec<i16>,
    /// `buckets x 2 x hidden` weights, per bucket the side to move's accumulator first,
    /// scaled by QB.
    pub output_weights: Vec<i16>,
    /// One output bias per bucket, scaled by QA·QB.
    pub output_bias: Vec<i32>,
}

impl QuantisedNet {
    /// The hidden size (the feature bias has one value per lane).
    pub fn hidden(&self) -> usize {
        self.feature_bias.len()
    }

    /// The number of output buckets (one output bias each).
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Checks that every part has the length the hidden size and the buckets ask for.
    pub fn check_lengths(&self) -> Result<(), String> {
        let (hidden, buckets, inputs) = (self.hidden(), self.buckets(), self.input_buckets.inputs());
        check_bucket_count(buckets)?;
        if self.feature_weights.len() != inputs * hidden || self.output_weights.len() != buckets * 2 * hidden {
            return Err(format!(
                "a network with {inputs} inputs, {hidden} hidden lanes and {buckets} output buckets needs {} feature \
                 weights and {} output weights, not {} and {}",
                inputs * hidden,
                buckets * 2 * hidden,
                self.feature_weights.len(),
                self.output_weights.len()
            ));
        }
        Ok(())
    }

    /// The file's contents (the current version).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut weights = Vec::with_capacity(payload_bytes(self.hidden(), self.buckets(), self.input_buckets.inputs()));
        for value in self.feature_weights.iter().chain(&self.feature_bias).chain(&self.output_weights) {
            weights.extend_from_slice(&value.to_le_bytes());
        }
        for bias in &self.output_bias {
            weights.extend_from_slice(&bias.to_le_bytes());
        }
        let plain = self.input_buckets.is_none();
        let mut bytes = Vec::with_capacity(VERSION_3_HEADER_BYTES + weights.len());
        bytes.extend_from_slice(&NETWORK_MAGIC);
        let count = |value: usize| u32::try_from(value).unwrap_or(u32::MAX);
        let fields = [
            if plain { PLAIN_VERSION } else { VERSION },
            INPUTS as u32,
            count(self.hidden()),
            count(self.buckets()),
            QA as u32,
            QB as u32,
            EVAL_SCALE as u32,
        ];
        for field in fields {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        if !plain {
            bytes.extend_from_slice(&self.input_buckets.to_bytes());
        }
        let covered = if plain { &[][..] } else { &bytes[INPUT_BUCKET_FIELDS] };
        let sum = checksum_of(&[covered, &weights]);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes.extend_from_slice(&weights);
        bytes
    }

    /// Reads a file's contents: any hidden size and bucket count, everything else checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNet, String> {
        let header = header(bytes)?;
        let (hidden, buckets, inputs) = (header.hidden, header.buckets, header.input_buckets.inputs());
        let expected = header.length + payload_bytes(hidden, buckets, inputs);
        if bytes.len() < expected {
            return Err(format!(
                "truncated: {} bytes, a network with {inputs} inputs, {hidden} hidden lanes and {buckets} output buckets \
                 has {expected}",
                bytes.len()
            ));
        }
        if bytes.len() > expected {
            return Err(format!("{} bytes after the weights", bytes.len() - expected));
        }
        let weights = &bytes[header.length..];
        if checksum_of(&[&bytes[header.covered.clone()], weights]) != header.checksum {
            return Err("the weights do not match the header's checksum (a damaged file)".to_string());
        }
        let (shorts, biases) = weights.split_at(weights.len() - 4 * buckets);
        let mut values = shorts.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |count: usize| values.by_ref().take(count).collect::<Vec<i16>>();
        let net = QuantisedNet {
            input_buckets: header.input_buckets,
            feature_weights: take(inputs * hidden),
            feature_bias: take(hidden),
            output_weights: take(buckets * 2 * hidden),
            output_bias: biases.chunks_exact(4).map(|b| i32::from_le_bytes(field(b, 0))).collect(),
        };
        net.check_lengths()?;
        Ok(net)
    }
}

/// What a file's header declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Lanes per accumulator.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Which rows each perspective reads.
    pub input_buckets: InputBuckets,
    /// Bytes before the weights.
    length: usize,
    /// The header bytes the checksum covers besides the weights.
    covered: Range<usize>,
    /// The weights' checksum.
    checksum: u64,
}

/// The header of a network file, after checking its magic, version, input count, scales
/// and sizes.
pub fn header(bytes: &[u8]) -> Result<Header, String> {
    if bytes.len() < VERSION_1_HEADER_BYTES {
        return Err(format!("{} bytes, too short for a network file's header ({VERSION_1_HEADER_BYTES})", bytes.len()));
    }
    if bytes[..8] != NETWORK_MAGIC {
        return Err("not a Harrier network file (bad magic)".to_string());
    }
    let number = |offset: usize| u32::from_le_bytes(field(bytes, offset));
    let version = number(8);
    let length = match version {
        1 => VERSION_1_HEADER_BYTES,
        PLAIN_VERSION => NETWORK_HEADER_BYTES,
        VERSION => VERSION_3_HEADER_BYTES,
        other => return Err(format!("network format version {other}; this engine reads versions 1 to {VERSION}")),
    };
    if bytes.len() < length {
        return Err(format!("{} bytes, too short for a network file's header ({length})", bytes.len()));
    }
    let (buckets, scales_at) = if version == 1 { (1, 20) } else { (number(20) as usize, 24) };
    let expected = [("inputs", INPUTS as u32), ("QA", QA as u32), ("QB", QB as u32), ("EVAL_SCALE", EVAL_SCALE as u32)];
    for ((name, wanted), offset) in expected.into_iter().zip([12, scales_at, scales_at + 4, scales_at + 8]) {
        if number(offset) != wanted {
            return Err(format!("the network's {name} is {}, this engine's is {wanted}", number(offset)));
        }
    }
    let hidden = number(16) as usize;
    if hidden == 0 || hidden > MAX_FILE_HIDDEN {
        return Err(format!("a hidden size of {hidden} is not a network"));
    }
    check_bucket_count(buckets)?;
    let (input_buckets, covered) = if version == VERSION {
        (InputBuckets::from_bytes(&field(bytes, INPUT_BUCKET_FIELDS.start))?, INPUT_BUCKET_FIELDS)
    } else {
        (InputBuckets::NONE, 0..0)
    };
    let checksum = u64::from_le_bytes(field(bytes, length - 8));
    Ok(Header { hidden, buckets, input_buckets, length, covered, checksum })
}

/// An error unless `buckets` is an output bucket count a network may have.
pub fn check_bucket_count(buckets: usize) -> Result<(), String> {
    if buckets == 0 || buckets > MAX_BUCKETS {
        return Err(format!("{buckets} output buckets (1 to {MAX_BUCKETS} allowed)"));
    }
    Ok(())
}

/// Bytes of the weights of a network with `inputs` inputs, `hidden` lanes and `buckets`
/// output buckets.
fn payload_bytes(hidden: usize, buckets: usize, inputs: usize) -> usize {
    2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// `N` bytes of `bytes` at `offset` (the caller has checked the length).
fn field<const N: usize>(bytes: &[u8], offset: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[offset..offset + N]);
    out
}

/// FNV-1a (64-bit) of `bytes`: any one changed byte changes it.
pub fn checksum(bytes: &[u8]) -> u64 {
    checksum_of(&[bytes])
}

/// [`checksum`] of `parts` one after the other.
fn checksum_of(parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|part| part.iter())
        .fold(FNV_BASIS, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME))
}

#[cfg(test)]
mod tests {
    use super::super::testing::random_network;
    use super::super::{MAX_ENGINE_HIDDEN, Network};
    use super::*;

    #[test]
    fn a_network_round_trips_through_its_file() {
        let net = random_network(1);
        let bytes = net.to_bytes();
        let weights = net.to_quantised();
        let header = if weights.input_buckets.is_none() { NETWORK_HEADER_BYTES } else { VERSION_3_HEADER_BYTES };
        let inputs = weights.input_buckets.inputs();
        assert_eq!(bytes.len(), header + payload_bytes(weights.hidden(), weights.buckets(), inputs));
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_ne!(Network::from_bytes(&random_network(2).to_bytes()), Ok(net));
    }

    #[test]
    fn a_damaged_file_is_an_error() {
        let mut versions = Vec::new();
        for seed in 3..9 {
            let net = random_network(seed);
            let header = if net.input_buckets().is_none() { NETWORK_HEADER_BYTES } else { VERSION_3_HEADER_BYTES };
            versions.push(header);
            let bytes = net.to_bytes();
            for length in [0, 7, header - 1, header, bytes.len() / 2, bytes.len() - 1] {
                let error = Network::from_bytes(&bytes[..length]).unwrap_err();
                assert!(error.contains("short") || error.contains("truncated"), "{length} bytes: {error}");
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(Network::from_bytes(&longer).unwrap_err().contains("after the weights"));
            // Every header byte, and weight bytes spread over the whole file.
            let offsets = (0..header).chain((header..bytes.len()).step_by(997)).chain([bytes.len() - 1]);
            for offset in offsets {
                let mut flipped = bytes.clone();
                flipped[offset] ^= 0x10;
                assert!(Network::from_bytes(&flipped).is_err(), "a flipped bit at byte {offset} is noticed");
            }
            let mut magic = bytes.clone();
            magic[..8].copy_from_slice(b"HRRGAME1");
            assert!(Network::from_bytes(&magic).unwrap_err().contains("magic"));
        }
        assert!(versions.contains(&NETWORK_HEADER_BYTES) && versions.contains(&VERSION_3_HEADER_BYTES));
    }

    #[test]
    fn input_buckets_that_contradict_the_header_are_refused() {
        let net = (1..20).map(random_network).find(|net| net.input_buckets().count() > 1).unwrap();
        let mut weights = net.to_quantised();
        let bytes = weights.to_bytes();
        let reheader = |bytes: &mut Vec<u8>| {
            let sum = checksum_of(&[&bytes[INPUT_BUCKET_FIELDS], &bytes[VERSION_3_HEADER_BYTES..]]);
            bytes[VERSION_3_HEADER_BYTES - 8..VERSION_3_HEADER_BYTES].copy_from_slice(&sum.to_le_bytes());
        };
        let mut count = bytes.clone();
        count[36] += 1;
        reheader(&mut count);
        assert!(Network::from_bytes(&count).unwrap_err().contains("squares give another layout"));
        let mut mirrored = bytes.clone();
        mirrored[40] = 2;
        reheader(&mut mirrored);
        assert!(Network::from_bytes(&mirrored).unwrap_err().contains("mirroring is 2"));
        // The same weights read as a network without input buckets are another file.
        weights.input_buckets = InputBuckets::NONE;
        weights.feature_weights.truncate(INPUTS * weights.hidden());
        assert_eq!(u32::from_le_bytes(field(&weights.to_bytes(), 8)), PLAIN_VERSION);
    }

    #[test]
    fn a_version_1_file_is_read_as_one_bucket() {
        let net = (1..20).map(random_network).find(|net| net.buckets() == 1 && net.input_buckets().is_none()).unwrap();
        let weights = &net.to_bytes()[NETWORK_HEADER_BYTES..];
        let mut version_1 = NETWORK_MAGIC.to_vec();
        for field in [1, INPUTS as u32, net.hidden() as u32, QA as u32, QB as u32, EVAL_SCALE as u32] {
            version_1.extend_from_slice(&field.to_le_bytes());
        }
        version_1.extend_from_slice(&checksum(weights).to_le_bytes());
        version_1.extend_from_slice(weights);
        assert_eq!(Network::from_bytes(&version_1), Ok(net));
        version_1[8] = 4;
        assert!(Network::from_bytes(&version_1).unwrap_err().contains("version 4"));
    }

    #[test]
    fn a_bucket_count_out_of_range_is_refused() {
        let mut net = random_network(5).to_quantised();
        for buckets in [0, MAX_BUCKETS + 1] {
            net.output_bias = vec![0; buckets];
            net.output_weights = vec![0; buckets * 2 * net.hidden()];
            assert!(QuantisedNet::from_bytes(&net.to_bytes()).unwrap_err().contains("output buckets"), "{buckets}");
        }
    }

    #[test]
    fn a_shape_the_engine_does_not_load_is_refused_by_name() {
        for hidden in [16, 100, MAX_ENGINE_HIDDEN + 64] {
            let other = QuantisedNet {
                input_buckets: InputBuckets::NONE,
                feature_weights: vec![1; INPUTS * hidden],
                feature_bias: vec![2; hidden],
                output_weights: vec![3; 2 * 2 * hidden],
                output_bias: vec![4, 5],
            };
            let bytes = other.to_bytes();
            assert_eq!(QuantisedNet::from_bytes(&bytes), Ok(other));
            let error = Network::from_bytes(&bytes).unwrap_err();
            assert!(
                error.contains(&format!("{INPUTS} -> {hidden} x2")) && error.contains("multiples of 64"),
                "{error}"
            );
        }
    }

    #[test]
    fn every_width_the_engine_loads_round_trips() {
        for hidden in [64, 256, 512] {
            let net = QuantisedNet {
                input_buckets: InputBuckets::NONE,
                feature_weights: (0..INPUTS * hidden).map(|i| (i % 7) as i16 - 3).collect(),
                feature_bias: vec![2; hidden],
                output_weights: (0..3 * 2 * hidden).map(|i| (i % 11) as i16 - 5).collect(),
                output_bias: vec![4, 5, 6],
            };
            let loaded = Network::from_bytes(&net.to_bytes()).unwrap();
            assert_eq!((loaded.hidden(), loaded.buckets()), (hidden, 3));
            assert_eq!(loaded.to_quantised(), net);
        }
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let mut net = random_network(4).to_quantised();
        net.feature_weights[5] = 1100;
        assert!(Network::from_quantised(&net).unwrap_err().contains("accumulator"));
        let mut net = random_network(4).to_quantised();
        net.output_weights[7] = -200;
        assert!(Network::from_quantised(&net).unwrap_err().contains("output weight"));
    }
}
