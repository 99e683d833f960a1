package io.jvmps.server.checkpoint;

/**
 * The JSON file written beside a part once the part is safely on disk: a part without its manifest
 * is unfinished and never read.
 *
 * @param format    checkpoint format version
 * @param step      the checkpoint's step
 * @param rank      the writing server's rank
 * @param servers   number of servers that write parts of this step
 * @param file      name of the part file in the same directory
 * @param bytes     size of the part file
 * @param crc32c    CRC-32C of the part file, as 8 hex digits
 * @param slices    slices in the part
 * @param elements  float elements of parameter values in the part
 * @param writtenAt ISO-8601 instant the part was completed
 */
public record PartManifest(int format, long step, int rank, int servers, String file, long bytes, String crc32c,
                           int slices, long elements, String writtenAt) {
}
