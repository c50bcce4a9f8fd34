/** The text of a PDF, one string per page (empty for a page with no text layer). */
export interface PdfText {
  pageCount: number;
  pages: string[];
}

/** The PDF library could not open or parse the file (corrupt, encrypted, not a PDF). */
export class PdfReadError extends Error {
  readonly code = "PDF_UNREADABLE";
}

/**
 * Extracts the text layer of each page. Loads the PDF library on first use, so start-up does not
 * pay for it. Contract: throws `PdfReadError` when the library cannot read `bytes`; a failure to
 * load the library itself is thrown as is.
 */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  try {
    // A copy: the library may take over (detach) the buffer it is given.
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const { totalPages, text } = await extractText(doc, { mergePages: false });
      return { pageCount: totalPages, pages: text };
    } finally {
      await doc.destroy();
    }
  } catch (error) {
    throw new PdfReadError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
