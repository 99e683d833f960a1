package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Positional reads of the data files that are read while the job trains ({@link CsvFile}, {@link NpyFile}). */
final class FileReads {
    private FileReads() {
    }

    /**
     * @param file   the data file
     * @param length its length when it was opened and checked
     * @return the file, open for reading
     * @throws PsException INVALID_ARGUMENT when its length changed since: its rows are no longer the ones checked
     */
    static FileChannel openUnchanged(Path file, long length) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        long now = channel.size();
        if (now != length) {
            channel.close();
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " changed while the job reads it (it had "
                    + length + " bytes, now " + now + ")");
        }
        return channel;
    }

    /**
     * Fills the buffer's remaining bytes from the file, its position 0 being the file's {@code position}.
     *
     * @throws EOFException when the file ends first
     */
    static void fill(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new EOFException("the file ends at " + (position + buffer.position()) + " bytes");
            }
        }
    }
}
