/*
 * pdflib.h -- libharu's functions as pdf.c and svgpdf.c call them: through a table that
 * the first call fills (pdflib.c), so that a run that draws no PDF does not load libharu.
 *
 * trainplan-report links everything but libharu and the C library statically where the
 * archives are there (report/report.mk); Debian ships no libharu archive, and linking its
 * shared library made every run load it, libpng and zlib at start: three more files
 * mapped, protected and relocated by the dynamic loader, about a millisecond of the
 * process's CPU time on the measuring machine even with --no-pdf (`trainplan-report
 * --version`: 98 -> 71 page faults, 596,767 -> 165,651 instructions; docs/architecture.md
 * §11).  Now libharu is opened with dlopen(3) when a PDF is first drawn
 * (rpt_hpdf_load, or the first call through the table), and each name below stands for
 * its pointer, of the very type hpdf.h declares (__typeof__), so that the code calling
 * it reads and type-checks as before.  A program that links libharu itself (the layout
 * tests) uses its own copy (pdflib.c looks in the process first).
 *
 * Include this after libharu's headers, in place of nothing else.
 */
#ifndef RPT_PDFLIB_H
#define RPT_PDFLIB_H

#include <hpdf.h>
#include <hpdf_conf.h>
#include <hpdf_utils.h>

struct calc_diag;

/* Every libharu function the report calls or names, once. */
#define RPT_HPDF_FUNCS(X) \
	X(HPDF_AddPage) \
	X(HPDF_Array_Add) \
	X(HPDF_Array_AddNumber) \
	X(HPDF_Array_Clear) \
	X(HPDF_Array_New) \
	X(HPDF_CMapEncoder_ToUnicode) \
	X(HPDF_CheckError) \
	X(HPDF_CreateExtGState) \
	X(HPDF_CreateOutline) \
	X(HPDF_Destination_SetFitH) \
	X(HPDF_DictStream_New) \
	X(HPDF_Dict_Add) \
	X(HPDF_Dict_AddName) \
	X(HPDF_Dict_AddNumber) \
	X(HPDF_Dict_GetItem) \
	X(HPDF_Error_GetCode) \
	X(HPDF_ExtGState_SetAlphaFill) \
	X(HPDF_FToA) \
	X(HPDF_Font_GetUnicodeWidth) \
	X(HPDF_Font_Validate) \
	X(HPDF_Free) \
	X(HPDF_FreeMem) \
	X(HPDF_GetEncoder) \
	X(HPDF_GetFont) \
	X(HPDF_GetMem) \
	X(HPDF_GetStreamSize) \
	X(HPDF_LinkAnnot_SetBorderStyle) \
	X(HPDF_List_Add) \
	X(HPDF_List_ItemAt) \
	X(HPDF_LoadPngImageFromFile) \
	X(HPDF_LoadTTFontFromFile) \
	X(HPDF_MemStream_FreeData) \
	X(HPDF_MemStream_GetBufCount) \
	X(HPDF_MemStream_GetBufPtr) \
	X(HPDF_MemStream_New) \
	X(HPDF_New) \
	X(HPDF_Outline_SetDestination) \
	X(HPDF_Outline_SetOpened) \
	X(HPDF_Page_BeginText) \
	X(HPDF_Page_Circle) \
	X(HPDF_Page_Clip) \
	X(HPDF_Page_ClosePath) \
	X(HPDF_Page_Concat) \
	X(HPDF_Page_CreateDestination) \
	X(HPDF_Page_CreateLinkAnnot) \
	X(HPDF_Page_CreateURILinkAnnot) \
	X(HPDF_Page_DrawImage) \
	X(HPDF_Page_EndPath) \
	X(HPDF_Page_EndText) \
	X(HPDF_Page_Fill) \
	X(HPDF_Page_FillStroke) \
	X(HPDF_Page_GRestore) \
	X(HPDF_Page_GSave) \
	X(HPDF_Page_GetLocalFontName) \
	X(HPDF_Page_LineTo) \
	X(HPDF_Page_MoveTo) \
	X(HPDF_Page_Rectangle) \
	X(HPDF_Page_SetDash) \
	X(HPDF_Page_SetExtGState) \
	X(HPDF_Page_SetFontAndSize) \
	X(HPDF_Page_SetHeight) \
	X(HPDF_Page_SetLineWidth) \
	X(HPDF_Page_SetRGBFill) \
	X(HPDF_Page_SetRGBStroke) \
	X(HPDF_Page_SetTextMatrix) \
	X(HPDF_Page_SetWidth) \
	X(HPDF_Page_ShowText) \
	X(HPDF_Page_Stroke) \
	X(HPDF_Page_TextWidth) \
	X(HPDF_ReadFromStream) \
	X(HPDF_ResetStream) \
	X(HPDF_SaveToStream) \
	X(HPDF_SetCompressionMode) \
	X(HPDF_SetCurrentEncoder) \
	X(HPDF_SetInfoAttr) \
	X(HPDF_SetInfoDateAttr) \
	X(HPDF_SetPageMode) \
	X(HPDF_Stream_Write) \
	X(HPDF_Stream_WriteStr) \
	X(HPDF_TTFontDef_GetGidWidth) \
	X(HPDF_TTFontDef_GetGlyphid) \
	X(HPDF_UseUTFEncodings)

struct rpt_hpdf {
#define RPT_HPDF_MEMBER(f) __typeof__(f) *f;
	RPT_HPDF_FUNCS(RPT_HPDF_MEMBER)
#undef RPT_HPDF_MEMBER
};

/* The table once libharu is loaded (pdflib.c), else NULL. */
extern const struct rpt_hpdf *rpt_hpdf_table;
/* Load libharu and fill the table (once, on any thread); the table, or NULL when libharu
 * or one of its functions is not there. */
const struct rpt_hpdf *rpt_hpdf_open(void);
/* The table, loaded on first use (a failed load leaves NULL: call rpt_hpdf_load first). */
static inline const struct rpt_hpdf *rpt_hpdf(void)
{
	const struct rpt_hpdf *t = __atomic_load_n(&rpt_hpdf_table, __ATOMIC_ACQUIRE);
	return t ? t : rpt_hpdf_open();
}
/* 0 when libharu is loaded; -1 with an error in 'd' (at 'file', the PDF being written)
 * when not. */
int rpt_hpdf_load(const char *file, struct calc_diag *d);

#ifndef RPT_PDFLIB_TABLE
#define HPDF_AddPage (rpt_hpdf()->HPDF_AddPage)
#define HPDF_Array_Add (rpt_hpdf()->HPDF_Array_Add)
#define HPDF_Array_AddNumber (rpt_hpdf()->HPDF_Array_AddNumber)
#define HPDF_Array_Clear (rpt_hpdf()->HPDF_Array_Clear)
#define HPDF_Array_New (rpt_hpdf()->HPDF_Array_New)
#define HPDF_CMapEncoder_ToUnicode (rpt_hpdf()->HPDF_CMapEncoder_ToUnicode)
#define HPDF_CheckError (rpt_hpdf()->HPDF_CheckError)
#define HPDF_CreateExtGState (rpt_hpdf()->HPDF_CreateExtGState)
#define HPDF_CreateOutline (rpt_hpdf()->HPDF_CreateOutline)
#define HPDF_Destination_SetFitH (rpt_hpdf()->HPDF_Destination_SetFitH)
#define HPDF_DictStream_New (rpt_hpdf()->HPDF_DictStream_New)
#define HPDF_Dict_Add (rpt_hpdf()->HPDF_Dict_Add)
#define HPDF_Dict_AddName (rpt_hpdf()->HPDF_Dict_AddName)
#define HPDF_Dict_AddNumber (rpt_hpdf()->HPDF_Dict_AddNumber)
#define HPDF_Dict_GetItem (rpt_hpdf()->HPDF_Dict_GetItem)
#define HPDF_Error_GetCode (rpt_hpdf()->HPDF_Error_GetCode)
#define HPDF_ExtGState_SetAlphaFill (rpt_hpdf()->HPDF_ExtGState_SetAlphaFill)
#define HPDF_FToA (rpt_hpdf()->HPDF_FToA)
#define HPDF_Font_GetUnicodeWidth (rpt_hpdf()->HPDF_Font_GetUnicodeWidth)
#define HPDF_Font_Validate (rpt_hpdf()->HPDF_Font_Validate)
#define HPDF_Free (rpt_hpdf()->HPDF_Free)
#define HPDF_FreeMem (rpt_hpdf()->HPDF_FreeMem)
#define HPDF_GetEncoder (rpt_hpdf()->HPDF_GetEncoder)
#define HPDF_GetFont (rpt_hpdf()->HPDF_GetFont)
#define HPDF_GetMem (rpt_hpdf()->HPDF_GetMem)
#define HPDF_GetStreamSize (rpt_hpdf()->HPDF_GetStreamSize)
#define HPDF_LinkAnnot_SetBorderStyle (rpt_hpdf()->HPDF_LinkAnnot_SetBorderStyle)
#define HPDF_List_Add (rpt_hpdf()->HPDF_List_Add)
#define HPDF_List_ItemAt (rpt_hpdf()->HPDF_List_ItemAt)
#define HPDF_LoadPngImageFromFile (rpt_hpdf()->HPDF_LoadPngImageFromFile)
#define HPDF_LoadTTFontFromFile (rpt_hpdf()->HPDF_LoadTTFontFromFile)
#define HPDF_MemStream_FreeData (rpt_hpdf()->HPDF_MemStream_FreeData)
#define HPDF_MemStream_GetBufCount (rpt_hpdf()->HPDF_MemStream_GetBufCount)
#define HPDF_MemStream_GetBufPtr (rpt_hpdf()->HPDF_MemStream_GetBufPtr)
#define HPDF_MemStream_New (rpt_hpdf()->HPDF_MemStream_New)
#define HPDF_New (rpt_hpdf()->HPDF_New)
#define HPDF_Outline_SetDestination (rpt_hpdf()->HPDF_Outline_SetDestination)
#define HPDF_Outline_SetOpened (rpt_hpdf()->HPDF_Outline_SetOpened)
#define HPDF_Page_BeginText (rpt_hpdf()->HPDF_Page_BeginText)
#define HPDF_Page_Circle (rpt_hpdf()->HPDF_Page_Circle)
#define HPDF_Page_Clip (rpt_hpdf()->HPDF_Page_Clip)
#define HPDF_Page_ClosePath (rpt_hpdf()->HPDF_Page_ClosePath)
#define HPDF_Page_Concat (rpt_hpdf()->HPDF_Page_Concat)
#define HPDF_Page_CreateDestination (rpt_hpdf()->HPDF_Page_CreateDestination)
#define HPDF_Page_CreateLinkAnnot (rpt_hpdf()->HPDF_Page_CreateLinkAnnot)
#define HPDF_Page_CreateURILinkAnnot (rpt_hpdf()->HPDF_Page_CreateURILinkAnnot)
#define HPDF_Page_DrawImage (rpt_hpdf()->HPDF_Page_DrawImage)
#define HPDF_Page_EndPath (rpt_hpdf()->HPDF_Page_EndPath)
#define HPDF_Page_EndText (rpt_hpdf()->HPDF_Page_EndText)
#define HPDF_Page_Fill (rpt_hpdf()->HPDF_Page_Fill)
#define HPDF_Page_FillStroke (rpt_hpdf()->HPDF_Page_FillStroke)
#define HPDF_Page_GRestore (rpt_hpdf()->HPDF_Page_GRestore)
#define HPDF_Page_GSave (rpt_hpdf()->HPDF_Page_GSave)
#define HPDF_Page_GetLocalFontName (rpt_hpdf()->HPDF_Page_GetLocalFontName)
#define HPDF_Page_LineTo (rpt_hpdf()->HPDF_Page_LineTo)
#define HPDF_Page_MoveTo (rpt_hpdf()->HPDF_Page_MoveTo)
#define HPDF_Page_Rectangle (rpt_hpdf()->HPDF_Page_Rectangle)
#define HPDF_Page_SetDash (rpt_hpdf()->HPDF_Page_SetDash)
#define HPDF_Page_SetExtGState (rpt_hpdf()->HPDF_Page_SetExtGState)
#define HPDF_Page_SetFontAndSize (rpt_hpdf()->HPDF_Page_SetFontAndSize)
#define HPDF_Page_SetHeight (rpt_hpdf()->HPDF_Page_SetHeight)
#define HPDF_Page_SetLineWidth (rpt_hpdf()->HPDF_Page_SetLineWidth)
#define HPDF_Page_SetRGBFill (rpt_hpdf()->HPDF_Page_SetRGBFill)
#define HPDF_Page_SetRGBStroke (rpt_hpdf()->HPDF_Page_SetRGBStroke)
#define HPDF_Page_SetTextMatrix (rpt_hpdf()->HPDF_Page_SetTextMatrix)
#define HPDF_Page_SetWidth (rpt_hpdf()->HPDF_Page_SetWidth)
#define HPDF_Page_ShowText (rpt_hpdf()->HPDF_Page_ShowText)
#define HPDF_Page_Stroke (rpt_hpdf()->HPDF_Page_Stroke)
#define HPDF_Page_TextWidth (rpt_hpdf()->HPDF_Page_TextWidth)
#define HPDF_ReadFromStream (rpt_hpdf()->HPDF_ReadFromStream)
#define HPDF_ResetStream (rpt_hpdf()->HPDF_ResetStream)
#define HPDF_SaveToStream (rpt_hpdf()->HPDF_SaveToStream)
#define HPDF_SetCompressionMode (rpt_hpdf()->HPDF_SetCompressionMode)
#define HPDF_SetCurrentEncoder (rpt_hpdf()->HPDF_SetCurrentEncoder)
#define HPDF_SetInfoAttr (rpt_hpdf()->HPDF_SetInfoAttr)
#define HPDF_SetInfoDateAttr (rpt_hpdf()->HPDF_SetInfoDateAttr)
#define HPDF_SetPageMode (rpt_hpdf()->HPDF_SetPageMode)
#define HPDF_Stream_Write (rpt_hpdf()->HPDF_Stream_Write)
#define HPDF_Stream_WriteStr (rpt_hpdf()->HPDF_Stream_WriteStr)
#define HPDF_TTFontDef_GetGidWidth (rpt_hpdf()->HPDF_TTFontDef_GetGidWidth)
#define HPDF_TTFontDef_GetGlyphid (rpt_hpdf()->HPDF_TTFontDef_GetGlyphid)
#define HPDF_UseUTFEncodings (rpt_hpdf()->HPDF_UseUTFEncodings)
#endif

#endif
