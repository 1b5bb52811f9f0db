#include "kepoch/format/compression.hpp"

#include <fmt/format.h>
#include <libdeflate.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <memory>

namespace kepoch {
namespace {

// The output under its bound; every codec grows it only through here. It is written into
// the caller's vector, whose bytes (and capacity) are reused: the vector only grows while
// decoding, and finish() cuts it to the output.
class Output {
 public:
  Output(std::string_view codec, std::size_t max, std::vector<std::uint8_t>& bytes)
      : codec_(codec), max_(max), bytes_(bytes) {}

  std::size_t room() const { return max_ - size_; }
  std::size_t size() const { return size_; }

  // n more bytes at the end (uninitialised), or FormatError at `position`.
  std::uint8_t* grow(std::size_t n, std::uint64_t position) {
    if (n > room()) exceeded(position);
    std::uint8_t* p = spare(n);
    size_ += n;
    return p;
  }
  void shrink(std::size_t n) { size_ -= n; }
  void append(const std::uint8_t* p, std::size_t n, std::uint64_t position) {
    std::copy_n(p, n, grow(n, position));
  }
  // n writable bytes after the output, not part of it until commit(): a decoder writes there
  // directly, then commits what it produced (FormatError at `position` past the bound).
  std::uint8_t* spare(std::size_t n) {
    if (bytes_.size() < size_ + n) {
      // Doubling, but the step that would reach the bound goes to the bound plus this call's
      // n at once: left to itself, the vector would reach 256 MiB exactly and then copy it
      // into 512 MiB to pass the bound by one chunk (the bytes of a decompression bomb).
      if (bytes_.capacity() < size_ + n) {
        std::size_t want = std::max(bytes_.capacity() * 2, size_ + n);
        if (want >= max_ && max_ <= SIZE_MAX - n) want = max_ + n;
        bytes_.reserve(want);
      }
      bytes_.resize(size_ + n);
    }
    return bytes_.data() + size_;
  }
  // The same for a decoder that writes its whole output in one call (libdeflate): exactly n
  // bytes, no doubling (n is already the output's size, up to the room left), plus room for
  // one zlib chunk so a fallback to zlib that reaches the bound does not copy the bytes.
  std::uint8_t* spare_whole(std::size_t n, std::size_t slack) {
    if (bytes_.size() < size_ + n) {
      if (bytes_.capacity() < size_ + n) bytes_.reserve(size_ + n + slack);
      bytes_.resize(size_ + n);
    }
    return bytes_.data() + size_;
  }
  void commit(std::size_t n, std::uint64_t position) {
    if (n > room()) exceeded(position);
    size_ += n;
  }
  [[noreturn]] void exceeded(std::uint64_t position) const {
    throw FormatError(
        position, fmt::format("{}: decompressed size exceeds max_output ({} bytes)", codec_, max_));
  }
  void finish() { bytes_.resize(size_); }

 private:
  std::string_view codec_;
  std::size_t max_;
  std::vector<std::uint8_t>& bytes_;
  std::size_t size_ = 0;
};

std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
}

// ---- gzip -------------------------------------------------------------------------------------
// RFC 1952 as java.util.zip.GZIPInputStream reads it (GzipCompression.wrapForInput):
//   member  = header | raw deflate | trailer
//   header  = 1f 8b | CM = 8 | FLG | MTIME(4) XFL(1) OS(1)
//             | [XLEN(2 LE) + extra if FLG.2] | [name\0 if FLG.3] | [comment\0 if FLG.4]
//             | [CRC32(header so far) & 0xffff, 2 LE, if FLG.1]      (reserved FLG bits ignored)
//   trailer = CRC32(4 LE) of the member's output | ISIZE(4 LE) = output size mod 2^32
// After a member, the remaining bytes are decoded as another member when they start with a
// well-formed header; otherwise they are ignored (readTrailer: "ignore any malformed"). JDK 25
// always tries; JDK 17 skips the try for a tail of at most 18 bytes when the whole payload
// already sits in its 8 KiB input buffer (so a truncated second member may pass there).

// Returns the header's length; FormatError if `in` does not start with a well-formed header.
std::size_t gzip_header(std::span<const std::uint8_t> in, std::uint64_t base) {
  ByteReader r(in, base);
  const std::uint64_t at = base;
  if (const auto magic = r.u16("gzip: magic"); magic != 0x1f8b) {
    throw FormatError(at, fmt::format("gzip: expected magic 1f 8b, found {:02x} {:02x} (Not in "
                                      "GZIP format)",
                                      magic >> 8, magic & 0xff));
  }
  if (const auto cm = r.u8("gzip: compression method"); cm != 8) {
    throw FormatError(at + 2, fmt::format("gzip: expected compression method 8, found {}", cm));
  }
  const std::uint8_t flg = r.u8("gzip: flags");
  r.skip(6, "gzip: mtime, xfl and os");
  if (flg & 0x04) {
    const auto x = r.bytes(2, "gzip: extra length");
    r.skip(std::size_t{x[0]} | (std::size_t{x[1]} << 8), "gzip: extra field");
  }
  for (const int bit : {0x08, 0x10}) {  // file name, comment: zero-terminated
    if (flg & bit) {
      while (r.u8(bit == 0x08 ? "gzip: file name" : "gzip: comment") != 0) {
      }
    }
  }
  if (flg & 0x02) {
    const std::size_t covered = r.offset();
    const auto x = r.bytes(2, "gzip: header crc");
    const auto crc = crc32(0, in.data(), static_cast<uInt>(covered)) & 0xffff;
    if ((std::uint32_t{x[0]} | (std::uint32_t{x[1]} << 8)) != crc) {
      throw FormatError(r.position() - 2, "gzip: header crc mismatch (Corrupt GZIP header)");
    }
  }
  return r.offset();
}

constexpr uInt kInflateChunk = 32 * 1024;  // zlib: inflated per call, straight into the output

// Inflates one raw deflate stream starting at in[pos] with zlib, the inflater
// java.util.zip.Inflater wraps; returns the offset after it. Every error is zlib's.
std::size_t gzip_inflate(std::span<const std::uint8_t> in, std::size_t pos, std::uint64_t base,
                         Output& out, std::uint32_t& crc, std::uint32_t& size) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw std::bad_alloc();
  const std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
  const std::size_t avail = std::min<std::size_t>(in.size() - pos, UINT_MAX);
  z.next_in = const_cast<Bytef*>(in.data() + pos);
  z.avail_in = static_cast<uInt>(avail);
  constexpr uInt kChunk = kInflateChunk;
  crc = 0;
  size = 0;
  for (;;) {
    std::uint8_t* chunk = out.spare(kChunk);
    z.next_out = chunk;
    z.avail_out = kChunk;
    const int rc = inflate(&z, Z_NO_FLUSH);
    const std::size_t at = pos + avail - z.avail_in;
    const uInt produced = kChunk - z.avail_out;
    out.commit(produced, base + at);
    crc = static_cast<std::uint32_t>(crc32(crc, chunk, produced));
    size += produced;
    if (rc == Z_STREAM_END) return at;
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      throw FormatError(base + at,
                        "gzip: input ends inside the deflate data (Unexpected end of "
                        "ZLIB input stream)");
    }
    throw FormatError(base + at,
                      fmt::format("gzip: corrupt deflate data: {}", z.msg ? z.msg : "zlib error"));
  }
}

// One libdeflate decompressor per thread (its tables), reused for every batch.
libdeflate_decompressor* deflate_decompressor() {
  thread_local const std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(
      libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
  if (!d) throw std::bad_alloc();
  return d.get();
}

// The fast path of gzip_inflate: libdeflate inflates the whole stream in one call, 2-3x
// zlib's speed, into an output buffer sized in advance. Its size is the trailer's ISIZE when
// the payload is one member (Kafka's producer writes one), doubled while libdeflate says it is
// too small, never past the room left under max_output nor deflate's largest ratio (1032:1:
// a 258-byte match in two bits) of the input. Returns the offset after the stream, or nullopt
// when libdeflate did not finish it (corrupt or truncated data, or output past the room):
// nothing is committed then, and zlib inflates the member again, so every error, its message
// and its offset are zlib's, as Kafka (whose Inflater is zlib) would meet them.
//
// libdeflate accepts a few streams zlib rejects, none of which a deflate encoder writes:
// literal/length codes 286-287 and distance codes 30-31 (libdeflate decodes them as length
// 258 and distances past 32 KiB), header counts above 286 and 30, and a precode of one
// 1-bit symbol. A corrupted byte can produce them (10 of 32,000 single-byte flips of real
// Kafka payloads did): the caller then finds the trailer's CRC-32 or size wrong and lets zlib
// decide. Only a stream crafted to carry them with a matching trailer passes here alone.
std::optional<std::size_t> gzip_inflate_whole(std::span<const std::uint8_t> in, std::size_t pos,
                                              Output& out, std::uint32_t& crc,
                                              std::uint32_t& size) {
  const std::size_t avail = in.size() - pos;
  const std::size_t most =
      std::min(out.room(), avail > SIZE_MAX / 1032 - 1 ? SIZE_MAX : avail * 1032 + 1);
  std::size_t want = in.size() >= 8 ? load_le32(in.data() + in.size() - 4) : 0;
  want = std::min(std::max<std::size_t>(want, 4096), most);
  libdeflate_decompressor* d = deflate_decompressor();
  for (;;) {
    std::uint8_t* dst = out.spare_whole(want, kInflateChunk);
    std::size_t used = 0, produced = 0;
    const libdeflate_result rc =
        libdeflate_deflate_decompress_ex(d, in.data() + pos, avail, dst, want, &used, &produced);
    if (rc == LIBDEFLATE_SUCCESS) {
      out.commit(produced, 0);  // produced <= want <= room: never throws
      crc = libdeflate_crc32(0, dst, produced);
      size = static_cast<std::uint32_t>(produced);  // ISIZE: the size mod 2^32
      return pos + used;
    }
    if (rc != LIBDEFLATE_INSUFFICIENT_SPACE || want >= most) return std::nullopt;
    want = want > most / 2 ? most : want * 2;
  }
}

void gunzip(std::span<const std::uint8_t> in, std::uint64_t base, Output& out) {
  std::size_t pos = 0;
  for (bool first = true;; first = false) {
    try {
      pos += gzip_header(in.subspan(pos), base + pos);
    } catch (const FormatError&) {
      if (first) throw;
      break;  // trailing bytes that are not a member: ignored, as GZIPInputStream does
    }
    std::uint32_t crc = 0, size = 0;
    const std::size_t mark = out.size();
    std::optional<std::size_t> end = gzip_inflate_whole(in, pos, out, crc, size);
    if (end && !(in.size() - *end >= 8 && load_le32(in.data() + *end) == crc &&
                 load_le32(in.data() + *end + 4) == size)) {
      // libdeflate finished a stream whose trailer does not match: corrupt data it decoded
      // where zlib stops earlier (see gzip_inflate_whole). zlib says what and where.
      out.shrink(out.size() - mark);
      end.reset();
    }
    pos = end ? *end : gzip_inflate(in, pos, base, out, crc, size);
    ByteReader trailer(in.subspan(pos), base + pos);
    const std::uint8_t* t = trailer.bytes(8, "gzip: trailer").data();
    if (load_le32(t) != crc || load_le32(t + 4) != size) {
      throw FormatError(base + pos,
                        fmt::format("gzip: trailer says crc {:08x} size {}, the data has crc "
                                    "{:08x} size {} (Corrupt GZIP trailer)",
                                    load_le32(t), load_le32(t + 4), crc, size));
    }
    pos += 8;
    if (pos == in.size()) break;
  }
}

// ---- snappy -----------------------------------------------------------------------------------
// snappy-java 1.1.10.7 SnappyInputStream (SnappyCompression.wrapForInput):
//   xerial stream = header | chunk*          (SnappyOutputStream: what Kafka's producer writes)
//     header = 82 'S' 'N' 'A' 'P' 'P' 'Y' 00 | version int32 BE | min-compatible int32 BE
//     chunk  = length int32 BE | raw snappy block of `length` bytes (a varint output size first)
//   otherwise the whole payload is one raw snappy block (librdkafka and other clients).
// Mirrored quirks: fewer than 16 bytes, or a different 8-byte magic, means raw; the first
// header's versions are not checked; 1-3 bytes after the last chunk are ignored; a chunk length
// equal to the magic's first four bytes starts a concatenated stream's header (12 more bytes
// needed, version < 1 is an error, any other magic silently ends the stream); empty input is
// an error ("Cannot decompress empty stream").

constexpr std::array<std::uint8_t, 8> kXerialMagic = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
constexpr std::uint32_t kXerialMagicHead = 0x82534e41;  // the magic's first 4 bytes, BE

void snappy_block(std::span<const std::uint8_t> block, std::uint64_t position, Output& out) {
  const auto* src = reinterpret_cast<const char*>(block.data());
  std::size_t n = 0;
  if (!snappy::GetUncompressedLength(src, block.size(), &n)) {
    throw FormatError(position, fmt::format("snappy: block of {} bytes has no valid length "
                                            "prefix",
                                            block.size()));
  }
  auto* dst = reinterpret_cast<char*>(out.grow(n, position));
  if (!snappy::RawUncompress(src, block.size(), dst)) {
    throw FormatError(position, fmt::format("snappy: corrupt block of {} bytes (declares {} "
                                            "uncompressed bytes)",
                                            block.size(), n));
  }
}

// Returns false at a concatenated header whose magic is not snappy's (the stream ends there).
bool xerial_inner_header(ByteReader& r) {
  const std::uint64_t at = r.position() - 4;
  const auto rest = r.bytes(12, "snappy: concatenated xerial header");
  if (!std::equal(kXerialMagic.begin() + 4, kXerialMagic.end(), rest.begin())) return false;
  if (const auto version = static_cast<std::int32_t>(load_be32(rest.data() + 4)); version < 1) {
    throw FormatError(at, fmt::format("snappy: concatenated xerial header has version {}, at "
                                      "least 1 is required",
                                      version));
  }
  return true;
}

void unsnappy(std::span<const std::uint8_t> in, std::uint64_t base, Output& out) {
  if (in.empty()) throw FormatError(base, "snappy: empty payload (Cannot decompress empty stream)");
  if (in.size() < 16 || !std::equal(kXerialMagic.begin(), kXerialMagic.end(), in.begin())) {
    snappy_block(in, base, out);
    return;
  }
  ByteReader r(in.subspan(16), base + 16);
  while (r.remaining() >= 4) {
    const std::uint64_t at = r.position();
    const std::uint32_t length = r.u32("snappy: xerial block length");
    if (length == kXerialMagicHead) {
      if (!xerial_inner_header(r)) break;
      continue;
    }
    if (length > INT32_MAX) {
      throw FormatError(at, fmt::format("snappy: xerial block length {} is negative",
                                        static_cast<std::int32_t>(length)));
    }
    if (length > r.remaining()) {
      throw FormatError(at, fmt::format("snappy: xerial block length {} exceeds the {} remaining "
                                        "bytes",
                                        length, r.remaining()));
    }
    const std::uint64_t data_at = r.position();
    snappy_block(r.bytes(length, "snappy: xerial block"), data_at, out);
  }
}

// ---- lz4 --------------------------------------------------------------------------------------
// LZ4 frame as Kafka's Lz4BlockInputStream reads it (Lz4Compression.wrapForInput); integers LE:
//   magic 04 22 4D 18 | FLG | BD | [content size, 8 bytes, if FLG.3] | HC
//   block*   = size uint32 (bit 31 set: data stored uncompressed) | data | [XXH32(data) if FLG.4]
//   end mark = 00 00 00 00 | [content checksum, 4 bytes, if FLG.2]
// FLG: bits 0-1 reserved (must be 0), 2 content checksum, 3 content size, 4 block checksum,
//      5 block independence (must be 1), 6-7 version (must be 01).
// BD:  bits 0-3 and 7 reserved (must be 0), bits 4-6 = 4..7: max block 64 KiB/256 KiB/1/4 MiB.
// HC = (XXH32(FLG..content size, seed 0) >> 8) & 0xff; for v0 messages (LegacyLz4::yes) Kafka
// skips it unchecked. Mirrored quirks: the content checksum is read but not verified; a size of
// 0x80000000 (an empty stored block) counts as the end mark; bytes after the end mark are
// ignored; the max block size bounds stored blocks too.

std::uint32_t read_le32(ByteReader& r, std::string_view field) {
  return load_le32(r.bytes(4, field).data());
}

// Reads the frame header from `r` (at in[0]); returns the maximum block size.
std::size_t lz4_header(std::span<const std::uint8_t> in, ByteReader& r, LegacyLz4 legacy) {
  if (r.remaining() < 6) {
    r.fail(
        fmt::format("lz4: frame header needs 6 bytes, only {} remain (Stream ended "
                    "prematurely)",
                    r.remaining()));
  }
  const auto magic = r.bytes(4, "lz4: magic");
  if (load_le32(magic.data()) != 0x184D2204) {
    throw FormatError(r.position() - 4,
                      fmt::format("lz4: expected magic 04 22 4d 18, found {:02x} {:02x} {:02x} "
                                  "{:02x} (Stream unsupported (invalid magic bytes))",
                                  magic[0], magic[1], magic[2], magic[3]));
  }
  const std::uint64_t descriptor_at = r.position();
  const std::uint8_t flg = r.u8("lz4: FLG");
  const std::uint8_t bd = r.u8("lz4: BD");
  const char* bad_flg = (flg & 0x03)      ? "reserved bits must be 0"
                        : !(flg & 0x20)   ? "dependent blocks are unsupported"
                        : (flg >> 6) != 1 ? "version must be 01"
                                          : nullptr;
  if (bad_flg) {
    throw FormatError(descriptor_at, fmt::format("lz4: FLG {:02x}: {}", flg, bad_flg));
  }
  const int size_code = (bd >> 4) & 7;
  if ((bd & 0x8f) != 0 || size_code < 4) {
    throw FormatError(descriptor_at + 1,
                      fmt::format("lz4: BD {:02x}: reserved bits must be 0 and the block size "
                                  "code 4..7",
                                  bd));
  }
  if (flg & 0x08) r.skip(8, "lz4: content size");
  const auto descriptor = in.subspan(4, r.offset() - 4);
  const std::uint8_t hc = r.u8("lz4: header checksum");
  const auto want = static_cast<std::uint8_t>((xxh32(descriptor) >> 8) & 0xff);
  if (legacy == LegacyLz4::no && hc != want) {
    throw FormatError(r.position() - 1,
                      fmt::format("lz4: header checksum {:02x}, expected {:02x} (Stream frame "
                                  "descriptor corrupted)",
                                  hc, want));
  }
  return std::size_t{1} << (2 * size_code + 8);
}

void lz4_compressed_block(std::span<const std::uint8_t> data, std::uint64_t position,
                          std::size_t max_block, Output& out) {
  const auto* src = reinterpret_cast<const char*>(data.data());
  const int n = static_cast<int>(data.size());
  const std::size_t cap = std::min(max_block, out.room());
  auto* dst = reinterpret_cast<char*>(out.grow(cap, position));
  const int got = LZ4_decompress_safe(src, dst, n, static_cast<int>(cap));
  if (got >= 0) {
    out.shrink(cap - static_cast<std::size_t>(got));
    return;
  }
  out.shrink(cap);
  if (cap < max_block) {  // corrupt, or only too big for max_output?
    std::vector<char> probe(max_block);
    if (LZ4_decompress_safe(src, probe.data(), n, static_cast<int>(max_block)) >= 0) {
      out.exceeded(position);
    }
  }
  throw FormatError(position, fmt::format("lz4: corrupt block of {} bytes (or it decompresses to "
                                          "more than the frame's {}-byte maximum)",
                                          data.size(), max_block));
}

void unlz4(std::span<const std::uint8_t> in, std::uint64_t base, Output& out, LegacyLz4 legacy) {
  ByteReader r(in, base);
  const std::size_t max_block = lz4_header(in, r, legacy);
  const bool block_checksums = in[4] & 0x10, content_checksum = in[4] & 0x04;
  for (;;) {
    const std::uint64_t at = r.position();
    if (r.remaining() < 4) {
      r.fail(
          fmt::format("lz4: expected a 4-byte block size or end mark, only {} bytes remain "
                      "(Stream ended prematurely)",
                      r.remaining()));
    }
    const std::uint32_t word = read_le32(r, "lz4: block size");
    const std::size_t size = word & 0x7fffffff;
    if (size == 0) break;
    if (size > max_block) {
      throw FormatError(
          at, fmt::format("lz4: block size {} exceeds the frame's maximum {}", size, max_block));
    }
    if (size > r.remaining()) {
      throw FormatError(at, fmt::format("lz4: block size {} exceeds the {} remaining bytes (Stream "
                                        "ended prematurely)",
                                        size, r.remaining()));
    }
    const auto data = r.bytes(size, "lz4: block");
    if (block_checksums) {
      const std::uint32_t stored = read_le32(r, "lz4: block checksum");
      if (stored != xxh32(data)) {
        throw FormatError(r.position() - 4,
                          fmt::format("lz4: block checksum {:08x}, the data hashes to {:08x} "
                                      "(Block checksum mismatch)",
                                      stored, xxh32(data)));
      }
    }
    if (word & 0x80000000) {
      out.append(data.data(), size, at + 4);
    } else {
      lz4_compressed_block(data, at + 4, max_block, out);
    }
  }
  if (content_checksum) r.skip(4, "lz4: content checksum");  // not verified, as in Kafka
}

// ---- zstd -------------------------------------------------------------------------------------
// zstd-jni's ZstdInputStreamNoFinalizer (ZstdCompression.wrapForInput): frames (including
// skippable frames) back to back, decoded with ZSTD_decompressStream until the input is used
// up. Input that ends inside a frame is an error ("Truncated source"); empty input is an empty
// stream; anything that is not a frame is an error.

// One decoder per thread, reset for each payload: a new one per batch allocated (and paged in)
// its window buffers every time.
ZSTD_DStream* zstd_stream() {
  thread_local const std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> ds(
      ZSTD_createDStream(), ZSTD_freeDStream);
  if (!ds || ZSTD_isError(ZSTD_initDStream(ds.get()))) throw std::bad_alloc();
  return ds.get();
}

void unzstd(std::span<const std::uint8_t> in, std::uint64_t base, Output& out) {
  ZSTD_DStream* ds = zstd_stream();
  const std::size_t chunk = ZSTD_DStreamOutSize();  // decoded per call, straight into the output
  ZSTD_inBuffer src{in.data(), in.size(), 0};
  std::size_t hint = 0;  // 0: between frames
  while (src.pos < src.size || hint != 0) {
    ZSTD_outBuffer dst{out.spare(chunk), chunk, 0};
    const std::size_t before = src.pos;
    hint = ZSTD_decompressStream(ds, &dst, &src);
    if (ZSTD_isError(hint)) {
      throw FormatError(base + src.pos, fmt::format("zstd: {}", ZSTD_getErrorName(hint)));
    }
    out.commit(dst.pos, base + src.pos);
    if (src.pos == src.size && dst.pos < dst.size && hint != 0) {
      throw FormatError(base + src.size, "zstd: input ends inside a frame (Truncated source)");
    }
    if (src.pos == before && dst.pos == 0) {
      throw FormatError(base + src.pos, "zstd: decoder made no progress");
    }
  }
}

std::uint32_t rotl32(std::uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

}  // namespace

std::string_view compression_name(CompressionType type) {
  switch (type) {
    case CompressionType::none:
      return "none";
    case CompressionType::gzip:
      return "gzip";
    case CompressionType::snappy:
      return "snappy";
    case CompressionType::lz4:
      return "lz4";
    case CompressionType::zstd:
      return "zstd";
  }
  return "unknown";
}

std::optional<CompressionType> compression_from_attributes(int codec_bits) {
  if (codec_bits < 0 || codec_bits > 4) return std::nullopt;
  return static_cast<CompressionType>(codec_bits);
}

namespace {

void decode(CompressionType type, std::span<const std::uint8_t> input, std::uint64_t base_position,
            Output& out, LegacyLz4 legacy) {
  switch (type) {
    case CompressionType::none:
      return out.append(input.data(), input.size(),
                        base_position + std::min(input.size(), out.room()));
    case CompressionType::gzip:
      return gunzip(input, base_position, out);
    case CompressionType::snappy:
      return unsnappy(input, base_position, out);
    case CompressionType::lz4:
      return unlz4(input, base_position, out, legacy);
    case CompressionType::zstd:
      return unzstd(input, base_position, out);
  }
  throw FormatError(base_position, "unknown compression type");
}

}  // namespace

void decompress_into(CompressionType type, std::span<const std::uint8_t> input,
                     std::uint64_t base_position, std::size_t max_output,
                     std::vector<std::uint8_t>& output, LegacyLz4 legacy) {
  Output out(compression_name(type), max_output, output);
  try {
    decode(type, input, base_position, out, legacy);
  } catch (...) {
    output.clear();
    throw;
  }
  out.finish();
}

std::vector<std::uint8_t> decompress(CompressionType type, std::span<const std::uint8_t> input,
                                     std::uint64_t base_position, std::size_t max_output,
                                     LegacyLz4 legacy) {
  std::vector<std::uint8_t> output;
  decompress_into(type, input, base_position, max_output, output, legacy);
  return output;
}

// XXH32 (github.com/Cyan4973/xxHash, the 32-bit variant): 4 lanes over 16-byte stripes, then
// the 4-byte and 1-byte tails, then the avalanche.
std::uint32_t xxh32(std::span<const std::uint8_t> data, std::uint32_t seed) {
  constexpr std::uint32_t p1 = 0x9E3779B1u, p2 = 0x85EBCA77u, p3 = 0xC2B2AE3Du, p4 = 0x27D4EB2Fu,
                          p5 = 0x165667B1u;
  const auto round = [&](std::uint32_t acc, const std::uint8_t* p) {
    return rotl32(acc + load_le32(p) * p2, 13) * p1;
  };
  const std::uint8_t* p = data.data();
  const std::uint8_t* const end = p + data.size();
  std::uint32_t h = 0;
  if (data.size() >= 16) {
    std::uint32_t v[4] = {seed + p1 + p2, seed + p2, seed, seed - p1};
    for (; end - p >= 16; p += 16) {
      for (int i = 0; i < 4; ++i)
        v[i] = round(v[i], p + 4 * i);
    }
    h = rotl32(v[0], 1) + rotl32(v[1], 7) + rotl32(v[2], 12) + rotl32(v[3], 18);
  } else {
    h = seed + p5;
  }
  h += static_cast<std::uint32_t>(data.size());
  for (; end - p >= 4; p += 4)
    h = rotl32(h + load_le32(p) * p3, 17) * p4;
  for (; p < end; ++p)
    h = rotl32(h + std::uint32_t{*p} * p5, 11) * p1;
  h ^= h >> 15;
  h *= p2;
  h ^= h >> 13;
  h *= p3;
  h ^= h >> 16;
  return h;
}

}  // namespace kepoch
