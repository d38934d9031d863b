/**
 * A hand-made mini LoCoMo file (invented text, same shape as the published data, with its known quirks):
 * two sessions, the second opening with speaker_b; an image; a numeric answer; an adversarial item;
 * evidence written "D1:1; D2:2", "D:2:3" and "D"; and an extra date-time with no session.
 */
export function miniLocomo(): unknown[] {
  return [
    {
      sample_id: 'mini-1',
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bob',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: [
          { speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a grey cat named Miso last week.' },
          { speaker: 'Bob', dia_id: 'D1:2', text: 'Lovely! I still paint every Sunday.' },
          {
            speaker: 'Ann',
            dia_id: 'D1:3',
            text: 'Here she is.',
            img_url: ['https://example.invalid/miso.jpg'],
            blip_caption: 'a photo of a grey cat on a sofa',
            query: 'grey cat',
          },
        ],
        session_2_date_time: '10:05 am on 27 June, 2023',
        session_2: [
          { speaker: 'Bob', dia_id: 'D2:1', text: 'I finished my lake painting yesterday.' },
          { speaker: 'Ann', dia_id: 'D2:2', text: 'Congrats! Miso knocked over my plant pot.' },
          { speaker: 'Bob', dia_id: 'D2:3', text: 'Cats will be cats. I am visiting Oslo in 2024.' },
        ],
        session_3_date_time: '9:00 am on 1 July, 2023',
      },
      qa: [
        { question: "What is the name of Ann's cat?", answer: 'Miso', evidence: ['D1:1'], category: 4 },
        { question: 'When did Bob finish the lake painting?', answer: 'The day before 27 June 2023', evidence: ['D2:1'], category: 2 },
        { question: 'Which city will Bob visit, and what does he paint?', answer: 2024, evidence: ['D1:2; D2:3'], category: 1 },
        { question: "What colour is Bob's dog?", adversarial_answer: 'grey', evidence: ['D:2:3', 'D'], category: 5 },
        { question: 'Would Ann call herself a cat person?', answer: 'Likely yes', evidence: [], category: 3 },
      ],
      observation: {
        session_1_observation: {
          Ann: [['Ann adopted a grey cat named Miso.', 'D1:1']],
          Bob: [['Bob paints every Sunday.', 'D1:2']],
        },
        session_2_observation: {
          Bob: [
            ['Bob finished a lake painting.', 'D2:1'],
            ['Bob plans to visit Oslo in 2024 and keeps painting.', ['D1:2', 'D2:3']],
          ],
          Ann: [['Miso knocked over a plant pot.', 'D2:2']],
        },
      },
      session_summary: {
        session_1_summary: 'Ann and Bob talked on 8 May 2023. Ann adopted a cat named Miso. Bob paints on Sundays.',
        session_2_summary: 'Bob finished a lake painting. Ann told him about Miso and the plant pot. Bob will visit Oslo in 2024.',
      },
      event_summary: { events_session_1: { Ann: ['Ann adopts a cat.'], Bob: [], date: '8 May, 2023' } },
    },
  ];
}

/** Audit entries for the mini file: one by id, one by text only, one unmatched, one of another type. */
export function miniCorrections(): unknown[] {
  return [
    {
      question_id: 'locomo_0_qa0',
      question: "What is the name of Ann's cat?",
      error_type: 'WRONG_CITATION',
      cited_evidence: ['D1:1'],
      correct_evidence: ['D1:1', 'D1:3'],
    },
    {
      question_id: 'locomo_7_qa1',
      question: 'When did Bob finish the lake painting?',
      error_type: 'WRONG_CITATION',
      cited_evidence: ['D2:1'],
      correct_evidence: ['D2:1', 'D2:2'],
    },
    { question_id: 'locomo_0_qa9', question: 'Who is Carl?', error_type: 'WRONG_CITATION', cited_evidence: ['D1:1'], correct_evidence: ['D1:2'] },
    { question_id: 'locomo_0_qa4', question: 'Would Ann call herself a cat person?', error_type: 'HALLUCINATION', cited_evidence: [], correct_evidence: ['D1:1'] },
  ];
}
